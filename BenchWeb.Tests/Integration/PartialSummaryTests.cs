using BenchEngine.Metrics;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Data;
using BenchWeb.Execution;
using BenchWeb.Tests.Support;
using Microsoft.EntityFrameworkCore;

namespace BenchWeb.Tests.Integration;

/// <summary>Runs that end without the engine's summary (a restart, a job started twice, a dashboard of an earlier
/// version) get one from the seconds they kept, computed by the engine's summary calculator, without latency
/// percentiles: a saved second keeps its own percentiles, not its operations' latencies.</summary>
[IntegrationTest]
public sealed class PartialSummaryTests
{
    [Fact]
    public async Task Restart_RunLeftRunning_GetsTheSummaryOfItsSavedSecondsWithoutLatency()
    {
        var dataDirectory = DashboardHost.NewDataDirectory();
        try
        {
            long runId;
            IReadOnlyList<SecondSnapshot> seconds = SeededRuns.Seconds(12, 1_000, 6);
            await using (var first = await DashboardHost.StartAsync(dataDirectory))
            {
                runId = await SeededRuns.AddAsync(first.Get<IDbContextFactory<BenchDbContext>>(), SeededRuns.Plan(TargetKind.Simulated, "left running"), seconds,
                    RunStatus.Running, withSummary: false);
            }

            await using var second = await DashboardHost.StartAsync(dataDirectory);

            var run = await second.RunAsync(runId);
            Assert.Equal(RunStatus.Interrupted, run.Status);
            var expected = SummaryCalculator.Calculate(seconds, new LatencyDistribution(), provisionedRuPerSecond: run.ProvisionedRequestUnits);
            var summary = run.ReadSummary();
            Assert.NotNull(summary);
            Assert.Equal(seconds.Sum(s => s.Ok), summary.TotalOk);
            Assert.Equal(expected.AverageThroughput, summary.AverageThroughput, 6);
            Assert.Equal(expected.P99PerSecondThroughput, summary.P99PerSecondThroughput);
            Assert.Equal(expected.TotalRequestUnits!.Value, summary.TotalRequestUnits!.Value, 6);
            Assert.Equal(expected.ThrottledFraction, summary.ThrottledFraction, 9);
            Assert.Equal(expected.SteadyState, summary.SteadyState);
            Assert.Equal(0, summary.Latency.Count);
            Assert.Null(summary.Latency.P99Ms);
            // The list's columns: the figures sort with the others; no P99 rather than a 0 that would sort as the fastest.
            Assert.Equal(summary.AverageThroughput, run.AverageThroughput);
            Assert.Equal(summary.Elapsed.TotalSeconds, run.ElapsedSeconds);
            Assert.Equal(summary.ThrottledFraction, run.ThrottledFraction);
            Assert.Null(run.P99LatencyMs);
        }
        finally
        {
            DashboardHost.DeleteDataDirectory(dataDirectory);
        }
    }

    [Fact]
    public async Task Start_EndedRunsWithSecondsButNoSummary_GetOneAndThoseWithASummaryKeepTheirs()
    {
        var dataDirectory = DashboardHost.NewDataDirectory();
        try
        {
            long cancelled, interrupted, completed, nothing;
            await using (var first = await DashboardHost.StartAsync(dataDirectory))
            {
                var databases = first.Get<IDbContextFactory<BenchDbContext>>();
                var plan = SeededRuns.Plan(TargetKind.TableStorage, "closed by an earlier version");
                cancelled = await SeededRuns.AddAsync(databases, plan, SeededRuns.Seconds(5, 2_000, 0, batchSize: 100), RunStatus.Cancelled, withSummary: false);
                interrupted = await SeededRuns.AddAsync(databases, plan, SeededRuns.Seconds(3, 2_000, 0, batchSize: 100), RunStatus.Interrupted, withSummary: false);
                completed = await SeededRuns.AddAsync(databases, plan, SeededRuns.Seconds(4, 2_000, 0, batchSize: 100));
                nothing = await SeededRuns.AddAsync(databases, plan, [], RunStatus.Interrupted, withSummary: false);
            }

            await using var second = await DashboardHost.StartAsync(dataDirectory);

            var cancelledSummary = (await second.RunAsync(cancelled)).ReadSummary();
            Assert.Equal(SeededRuns.Seconds(5, 2_000, 0, batchSize: 100).Sum(s => s.Ok), cancelledSummary?.TotalOk);
            Assert.True(cancelledSummary!.LatencyIsPerBatch);
            Assert.Equal(SeededRuns.Seconds(3, 2_000, 0, batchSize: 100).Sum(s => s.Ok), (await second.RunAsync(interrupted)).ReadSummary()?.TotalOk);
            // The engine's summary of a completed run is its own, latency included.
            Assert.True((await second.RunAsync(completed)).ReadSummary()!.Latency.Count > 0);
            // Nothing measured: nothing to summarise.
            Assert.Null((await second.RunAsync(nothing)).SummaryJson);
        }
        finally
        {
            DashboardHost.DeleteDataDirectory(dataDirectory);
        }
    }

    [Fact]
    public async Task Execute_RunFoundRunningWithSavedSeconds_EndsInterruptedWithTheirSummary()
    {
        await using var host = await DashboardHost.StartAsync();
        var seconds = SeededRuns.Seconds(6, 500, 5.5);
        var runId = await SeededRuns.AddAsync(host.Get<IDbContextFactory<BenchDbContext>>(), SeededRuns.Plan(TargetKind.CosmosSql, "its job started twice"), seconds,
            RunStatus.Running, withSummary: false);

        await host.Get<RunExecutor>().ExecuteAsync(runId, CancellationToken.None);

        var run = await host.RunAsync(runId);
        Assert.Equal(RunStatus.Interrupted, run.Status);
        Assert.Equal(seconds.Sum(s => s.Ok), run.ReadSummary()?.TotalOk);
        Assert.Equal(seconds.Sum(s => s.RequestUnits) / seconds.Sum(s => s.Ok), run.ReadSummary()!.RequestUnitsPerInsert!.Value, 9);
    }
}
