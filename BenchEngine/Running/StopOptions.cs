namespace BenchEngine.Running;

/// <summary>When a run ends. The first condition met ends it; a CSV file's end ends it too.</summary>
public sealed record StopOptions
{
    /// <summary>Documents to write in all.</summary>
    public long? TotalDocuments { get; init; }

    /// <summary>Closed loop: documents per worker (the seeds' "T tasks × R records"); total = workers × this.</summary>
    public long? DocumentsPerWorker { get; init; }

    /// <summary>Seconds to run.</summary>
    public double? DurationSeconds { get; init; }

    /// <summary>Stops the run early when throttles, errors or (open loop) unsent requests pass a share over a window of seconds.</summary>
    public AutoStopOptions? AutoStop { get; init; }
}

/// <summary>An auto-stop rule, evaluated as each second closes over the last <see cref="WindowSeconds"/> seconds.</summary>
public sealed record AutoStopOptions
{
    /// <summary>Stop when throttled responses ÷ all responses exceed this (0–1).</summary>
    public double? ThrottledFractionAbove { get; init; }

    /// <summary>Stop when failed responses (not throttles) ÷ all responses exceed this (0–1).</summary>
    public double? ErrorFractionAbove { get; init; }

    /// <summary>Open loop: stop when requests due but not sent ÷ requests due (sent + not sent) exceed this (0–1).</summary>
    public double? DroppedFractionAbove { get; init; }

    public int WindowSeconds { get; init; } = 10;
}
