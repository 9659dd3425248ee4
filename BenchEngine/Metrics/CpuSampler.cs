using System.Diagnostics;

namespace BenchEngine.Metrics;

/// <summary>The process's CPU use between two samples, as a share of all cores.</summary>
public sealed class CpuSampler
{
    private readonly Func<TimeSpan> _processorTime;
    private readonly TimeProvider _time;
    private readonly int _processorCount;
    private TimeSpan _lastCpu;
    private long _lastTimestamp;

    public CpuSampler(TimeProvider time, Func<TimeSpan>? processorTime = null, int? processorCount = null)
    {
        _time = time ?? throw new ArgumentNullException(nameof(time));
        _processorTime = processorTime ?? ReadProcessorTime;
        _processorCount = processorCount ?? Environment.ProcessorCount;
        _lastCpu = _processorTime();
        _lastTimestamp = _time.GetTimestamp();
    }

    /// <summary>CPU % (0–100) since the previous call (or construction).</summary>
    public double Sample()
    {
        var cpu = _processorTime();
        var now = _time.GetTimestamp();
        var wall = _time.GetElapsedTime(_lastTimestamp, now);
        var used = cpu - _lastCpu;
        _lastCpu = cpu;
        _lastTimestamp = now;
        if (wall <= TimeSpan.Zero)
        {
            return 0;
        }

        return Math.Clamp(used.TotalSeconds / (wall.TotalSeconds * _processorCount) * 100, 0, 100);
    }

    private static TimeSpan ReadProcessorTime()
    {
        using var process = Process.GetCurrentProcess();
        return process.TotalProcessorTime;
    }
}
