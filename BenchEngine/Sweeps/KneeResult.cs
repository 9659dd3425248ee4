using System.Globalization;

namespace BenchEngine.Sweeps;

/// <summary>The recommended step of one series of a sweep, and why.</summary>
public sealed record KneeResult
{
    /// <summary>The series' value; null without series.</summary>
    public string? Series { get; init; }

    /// <summary>The recommended step's number (<see cref="SweepStepResult.Index"/>); null when no step of the series ran
    /// and measured. When already the first step crossed the rule, it is that step (and <see cref="LimitIndex"/> too).</summary>
    public int? RecommendedIndex { get; init; }

    /// <summary>The recommended step's value of the swept setting.</summary>
    public string? RecommendedValue { get; init; }

    /// <summary>The client, not the service, limited the series: the steps after the recommended one were client-limited,
    /// or every step before the limit was (then the recommended step's figures are the client's).</summary>
    public bool ClientBound { get; init; }

    public KneeLimit LimitedBy { get; init; }

    /// <summary>The step that crossed the rule, or the first client-limited step after the recommended one
    /// (<see cref="KneeLimit.ClientCpu"/>), or the first step that used the provisioned RU/s
    /// (<see cref="KneeLimit.ProvisionedThroughput"/>); null when none did.</summary>
    public int? LimitIndex { get; init; }

    /// <summary>The rule and the numbers that decided, in a sentence.</summary>
    public string Reason { get; init; } = "";

    /// <summary>The recommended step's throughput as the knee judged it, documents/s: its steady window's
    /// (<see cref="SweepStepResult.JudgedThroughput"/>).</summary>
    public double? Throughput { get; init; }

    /// <summary>Provisioned RU/s left unused at the recommended step over the seconds it was judged on (its steady window's,
    /// as <see cref="Throughput"/>), as a percentage of the provisioned RU/s; null when either is unknown.</summary>
    public double? HeadroomPercent { get; init; }

    /// <summary>A headroom as every text shows it, the reason and the page alike: up to two decimals, and 0 when the step used more
    /// than the provisioned RU/s ("3.51 %").</summary>
    public static string Headroom(double percent) => Math.Max(0, percent).ToString("0.##", CultureInfo.InvariantCulture) + " %";

    /// <summary>What the provisioned RU/s of the recommended step costs a month, US dollars (manual throughput, list price);
    /// null when unknown.</summary>
    public double? MonthlyCost { get; init; }

    /// <summary>The series' steps as the rule judged them, first runs and re-runs, in step order (a re-run after its step).</summary>
    public IReadOnlyList<SweepStepResult> Steps { get; init; } = [];

    /// <summary>What the rule made of its steps, in words: the client-limited ones, the re-run ones and why, the limit.</summary>
    public IReadOnlyList<KneeStepNote> Notes { get; init; } = [];
}
