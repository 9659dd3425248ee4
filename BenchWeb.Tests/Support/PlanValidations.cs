using System.Collections.Concurrent;
using System.Diagnostics;
using System.Diagnostics.Metrics;
using BenchEngine.Running;

namespace BenchWeb.Tests.Support;

/// <summary>Counts the plan checks (<see cref="CheckedPlan.ValidationsName"/>) made while it listens, each by who made it:
/// the type on the call stack that asked (the engine's runner, a job, a launch). The meter is the process's: use it in the
/// <see cref="PlanValidationCollection"/>, which runs alone.</summary>
public sealed class PlanValidations : IDisposable
{
    public const string Engine = "BenchEngine.Running.BenchmarkRunner";

    public const string JobStart = "BenchWeb.Execution.RunExecutor";

    public const string Launch = "BenchWeb.Launch.RunService";

    public const string SweepLaunch = "BenchWeb.Sweeps.SweepService";

    public const string Headless = "BenchWeb.Headless.HeadlessCommand";

    public const string HeadlessSweep = "BenchWeb.Headless.HeadlessSweep";

    public const string Editor = "BenchWeb.Components.Pages.Profiles.ProfileEdit";

    public const string ProfileStore = "BenchWeb.Profiles.ProfileService";

    private static readonly string[] Askers = [Engine, JobStart, SweepLaunch, Launch, HeadlessSweep, Headless, ProfileStore, Editor];

    private readonly MeterListener _listener = new();
    private readonly ConcurrentQueue<string> _askers = new();

    public PlanValidations()
    {
        _listener.InstrumentPublished = (instrument, listener) =>
        {
            if (instrument.Meter.Name == CheckedPlan.MeterName && instrument.Name == CheckedPlan.ValidationsName)
            {
                listener.EnableMeasurementEvents(instrument);
            }
        };
        _listener.SetMeasurementEventCallback<long>((_, _, _, _) =>
        {
            // The innermost of the known askers (the engine's runner is called by a job, a headless sweep by the command).
            var stack = new StackTrace().ToString();
            _askers.Enqueue(Askers.Select(a => (Asker: a, At: stack.IndexOf(a + ".", StringComparison.Ordinal)))
                .Where(a => a.At >= 0).OrderBy(a => a.At).Select(a => a.Asker).FirstOrDefault() ?? "elsewhere");
        });
        _listener.Start();
    }

    /// <summary>Every check counted so far.</summary>
    public int Total => _askers.Count;

    /// <summary>The checks <paramref name="asker"/> made (one of the constants).</summary>
    public int By(string asker) => _askers.Count(a => a == asker);

    public void Dispose() => _listener.Dispose();
}
