using BenchEngine.Metrics;
using BenchEngine.Running;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace BenchWeb.Tests.Support;

/// <summary>Client health read from a script, second by second, so that a test decides in which seconds the client was the
/// limit, whatever the machine's load; the run's bounds judge it as they judge the real monitor's figures.</summary>
internal sealed class ScriptedClientHealth(ClientLimits limits, Func<int, ClientHealth> script) : IClientHealthSource
{
    /// <summary>The figures of a starved second: the host's CPU full and threads waiting 180 ms for a core.</summary>
    public static readonly ClientHealth Starved = new()
    {
        HostCpuPercent = 100, SchedulingLagP50Ms = 40, SchedulingLagP99Ms = 180, SchedulingLagMaxMs = 230, ThreadPoolQueueMax = 12,
        ThreadPoolThreads = 9, ThreadInjections = 2, GcPauseMs = 3, AvailableMemoryMb = 1_500,
    };

    /// <summary>The figures of a healthy second.</summary>
    public static readonly ClientHealth Healthy = new()
    {
        HostCpuPercent = 20, SchedulingLagP50Ms = 0.05, SchedulingLagP99Ms = 0.4, SchedulingLagMaxMs = 0.9, ThreadPoolThreads = 8, AvailableMemoryMb = 1_600,
    };

    /// <summary>The bounds these tests judge by: the defaults without this process's own CPU, which a busy machine decides
    /// (nor the share of it a full host needs to make a second the client's).</summary>
    public static readonly ClientLimits Limits = ClientLimits.Default with { ProcessCpuPercent = null, HostCpuProcessCores = 0 };

    private int _samples;

    /// <summary>Starved in seconds <paramref name="first"/> to <paramref name="last"/>, healthy in the others.</summary>
    public static Func<int, ClientHealth> StarvedIn(int first, int last) => index => index >= first && index <= last ? Starved : Healthy;

    /// <summary>The dashboard's runner with this script in place of the monitor, judging by the configured bounds (which the
    /// test sets to <see cref="Limits"/> with <see cref="Settings"/>).</summary>
    public static void Replace(IServiceCollection services, Func<int, ClientHealth> script) =>
        services.AddSingleton(sp => new BenchmarkRunner(TimeProvider.System)
        {
            ClientLimits = sp.GetRequiredService<IOptions<ClientLimits>>().Value,
            ClientHealth = limits => new ScriptedClientHealth(limits, script),
        });

    /// <summary>The configuration that gives the dashboard <see cref="Limits"/>: an empty value switches a bound off.</summary>
    public static Dictionary<string, string?> Settings() => new()
    {
        ["BenchWeb:ClientLimits:ProcessCpuPercent"] = "",
        ["BenchWeb:ClientLimits:HostCpuProcessCores"] = "0",
    };

    public void Start()
    {
    }

    public ClientHealth Sample(double processCpuPercent, TimeSpan clockLag)
    {
        var health = script(_samples++) with { ClockLagMs = clockLag.TotalMilliseconds };
        // Judged as if this process used enough of the machine for a full host to be its limit: the script, not the machine's
        // load, decides which seconds are starved.
        return health with { Limits = (limits with { HostCpuProcessCores = 0 }).Judge(processCpuPercent, health) };
    }

    public void Dispose()
    {
    }
}
