using BenchEngine.Running;
using BenchWeb.Data;
using BenchWeb.Launch;
using BenchWeb.Profiles;
using BenchWeb.Tests.Support;
using BenchWeb.Tests.Support.Components;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;

namespace BenchWeb.Tests.Web.Runs;

/// <summary>A plan's baseline run is looked up when it is launched or saved as a profile: one that does not exist, did not
/// complete or measured nothing is refused on <c>Thresholds.BaselineRunId</c>, rather than failing the verdict once the run has
/// gone to its end.</summary>
[UnitTest]
public sealed class BaselineRunTests
{
    private static RunPlan WithBaseline(long runId) => new()
    {
        Name = "bl5",
        Stop = new StopOptions { DurationSeconds = 2 },
        Thresholds = new ThresholdOptions { BaselineRunId = runId, MinShareOfBaseline = 0.95 },
    };

    private static async Task<long> SeedAsync(BenchWebComponentContext context, RunStatus status, double? throughput)
    {
        await using var db = await context.Databases.CreateDbContextAsync();
        var run = new RunEntity { ProfileName = "earlier", PlanJson = new RunPlan { Name = "earlier" }.ToJson(), Status = status, AverageThroughput = throughput, QueuedAt = SeededRuns.Start };
        db.Runs.Add(run);
        await db.SaveChangesAsync();
        return run.Id;
    }

    [Fact]
    public async Task Launch_RefusesABaselineRunThatDoesNotExist_OnItsField_AndQueuesNothing()
    {
        await using var context = new BenchWebComponentContext();

        var ex = await Assert.ThrowsAsync<RunPlanValidationException>(() =>
            context.Services.GetRequiredService<RunService>().StartAsync(WithBaseline(99999), null, null, TestActors.Runner, CancellationToken.None));

        var error = Assert.Single(ex.Errors);
        Assert.Equal("Thresholds.BaselineRunId", error.Field);
        Assert.StartsWith("Run 99999 does not exist", error.Message, StringComparison.Ordinal);
        await using var db = await context.Databases.CreateDbContextAsync();
        Assert.False(await db.Runs.AnyAsync(r => r.ProfileName == "bl5"));
    }

    [Theory]
    [InlineData(RunStatus.Completed, null, "measured no throughput")]
    [InlineData(RunStatus.Completed, 0.0, "measured no throughput")]
    [InlineData(RunStatus.Failed, 1_000.0, "did not complete (Failed)")]
    [InlineData(RunStatus.Cancelled, 1_000.0, "did not complete (Cancelled)")]
    public async Task Launch_RefusesABaselineRunWithNoThroughputToCompareWith(RunStatus status, double? throughput, string message)
    {
        await using var context = new BenchWebComponentContext();
        var baseline = await SeedAsync(context, status, throughput);

        var ex = await Assert.ThrowsAsync<RunPlanValidationException>(() =>
            context.Services.GetRequiredService<RunService>().StartAsync(WithBaseline(baseline), null, null, TestActors.Runner, CancellationToken.None));

        var error = Assert.Single(ex.Errors);
        Assert.Equal("Thresholds.BaselineRunId", error.Field);
        Assert.Contains(message, error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(RunStatus.Completed, 1_000.0)]
    [InlineData(RunStatus.Running, null)]
    public async Task Launch_AcceptsACompletedBaselineWithThroughput_OrOneStillRunning(RunStatus status, double? throughput)
    {
        await using var context = new BenchWebComponentContext();
        var baseline = await SeedAsync(context, status, throughput);

        var id = await context.Services.GetRequiredService<RunService>().StartAsync(WithBaseline(baseline), null, null, TestActors.Runner, CancellationToken.None);

        Assert.True(id > baseline);
    }

    [Fact]
    public async Task CreatingAProfile_RefusesABaselineRunThatDoesNotExist_AndSavesNothing()
    {
        await using var context = new BenchWebComponentContext();

        var ex = await Assert.ThrowsAsync<RunPlanValidationException>(() =>
            context.Services.GetRequiredService<ProfileService>().CreateAsync(WithBaseline(99999), null, TestActors.Runner, CancellationToken.None));

        Assert.Equal("Thresholds.BaselineRunId", Assert.Single(ex.Errors).Field);
        await using var db = await context.Databases.CreateDbContextAsync();
        Assert.False(await db.Profiles.AnyAsync());
    }

    [Fact]
    public async Task SavingAProfileDraft_RefusesABaselineRunThatDoesNotExist()
    {
        await using var context = new BenchWebComponentContext();

        var ex = await Assert.ThrowsAsync<RunPlanValidationException>(() =>
            context.Services.GetRequiredService<ProfileService>().SaveAsync(0, new ProfileDraft(WithBaseline(99999), null, null), TestActors.Runner, CancellationToken.None));

        Assert.Contains("Run 99999 does not exist", Assert.Single(ex.Errors).Message, StringComparison.Ordinal);
    }
}
