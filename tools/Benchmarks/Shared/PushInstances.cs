using BenchWeb.Tests.Support;

namespace Benchmarks;

/// <summary>The dashboards a push benchmark watches a run through: one embedded instance that runs the run and serves its
/// viewers, or (shared mode) two instances on one PostgreSQL and one Redis (tools/bench.sh starts them: BENCH_POSTGRES,
/// BENCH_REDIS): <see cref="Runner"/> runs the run (role All: it also serves the form that launches it) and
/// <see cref="Viewers"/> (role Web: it never executes a run) serves every viewer, so each second reaches them through
/// Redis (the live feed's relay for pages, the SignalR backplane for hub clients).</summary>
internal sealed class PushInstances : IAsyncDisposable
{
    private PushInstances(DashboardProcess runner, DashboardProcess viewers)
    {
        Runner = runner;
        Viewers = viewers;
    }

    /// <summary>The instance that executes the run.</summary>
    public DashboardProcess Runner { get; }

    /// <summary>The instance the viewers are on (the same process as <see cref="Runner"/> unless shared).</summary>
    public DashboardProcess Viewers { get; }

    public bool Shared => !ReferenceEquals(Runner, Viewers);

    public static async Task<PushInstances> StartAsync(bool shared)
    {
        if (!shared)
        {
            var dashboard = await DashboardProcess.StartAsync();
            return new PushInstances(dashboard, dashboard);
        }

        var database = Environment.GetEnvironmentVariable("BENCH_POSTGRES") ?? throw new InvalidOperationException("BENCH_POSTGRES is not set: run it through tools/bench.sh.");
        var redis = Environment.GetEnvironmentVariable("BENCH_REDIS") ?? throw new InvalidOperationException("BENCH_REDIS is not set: run it through tools/bench.sh.");
        Dictionary<string, string> Instance(string name, string role) => new()
        {
            ["BenchWeb__Mode"] = "Shared",
            ["ConnectionStrings__BenchDb"] = database,
            ["ConnectionStrings__Redis"] = redis,
            ["BenchWeb__Agent__Role"] = role,
            ["BenchWeb__Agent__Name"] = name,
        };

        // One after the other: the first creates the database's tables.
        var runner = await DashboardProcess.StartAsync(Instance("runner", "All"), port: null);
        try
        {
            var viewers = await DashboardProcess.StartAsync(Instance("viewers", "Web"), port: null);
            return new PushInstances(runner, viewers);
        }
        catch
        {
            await runner.DisposeAsync();
            throw;
        }
    }

    public async ValueTask DisposeAsync()
    {
        if (Shared)
        {
            await Viewers.DisposeAsync();
        }

        await Runner.DisposeAsync();
    }
}
