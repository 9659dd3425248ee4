namespace BenchEngine.Metrics;

/// <summary>Measures the client's health second by second (<see cref="ClientHealthMonitor"/>; tests pass a scripted one).</summary>
public interface IClientHealthSource : IDisposable
{
    /// <summary>Starts measuring; the first <see cref="Sample"/> covers the time since.</summary>
    void Start();

    /// <summary>The health since the previous sample (or <see cref="Start"/>), judged against the run's bounds.</summary>
    /// <param name="processCpuPercent">This process's CPU over the same second.</param>
    /// <param name="clockLag">How late the run's clock closed the second.</param>
    ClientHealth Sample(double processCpuPercent, TimeSpan clockLag);
}
