namespace BenchWeb.Components.Pages.Runs;

/// <summary>What a run page's client health chart shows (<see cref="RunCharts"/>; the chart module names the same states).</summary>
public enum ClientHealthShown
{
    /// <summary>No second yet (a queued run, or one before its first second): nothing to draw.</summary>
    Waiting,

    /// <summary>At least one second has client health: the chart is drawn.</summary>
    Measured,

    /// <summary>The run has seconds, none with client health (measured before it was kept): nothing to draw, and it says so.</summary>
    Unmeasured,
}
