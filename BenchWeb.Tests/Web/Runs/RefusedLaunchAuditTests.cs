using BenchEngine.Running;
using BenchEngine.Sweeps;
using BenchEngine.Targets;
using BenchWeb.Data;
using BenchWeb.Guard.Administration;
using BenchWeb.Guard.Audit;
using BenchWeb.Launch;
using BenchWeb.Profiles;
using BenchWeb.Sweeps;
using BenchWeb.Tests.Support;
using BenchWeb.Tests.Support.Components;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;

namespace BenchWeb.Tests.Web.Runs;

/// <summary>A launch the installation refuses is in the audit log as well as a launch it allows: who tried, what was
/// refused and why, and against which endpoint — for every way a launch is refused, runs and sweeps alike.</summary>
[UnitTest]
public sealed class RefusedLaunchAuditTests
{
    [Fact]
    public async Task Launch_OffTheAllowList_IsRefusedAndRecorded_WithTheHostAndTheReason()
    {
        await using var context = new BenchWebComponentContext(allowLoopbackEndpoints: false);
        var plan = new RunPlan
        {
            Name = "elsewhere",
            Target = new TargetOptions { Kind = TargetKind.CosmosSql, Cosmos = new CosmosOptions { Endpoint = "https://cosmos.example.net:443/" } },
        };

        await Assert.ThrowsAsync<RunPlanValidationException>(() => Runs(context).StartAsync(plan, null, null, TestActors.Runner, CancellationToken.None));

        var entry = await SingleRefusalAsync(context, AuditActions.RunRefused);
        AssertRunner(entry);
        Assert.Equal("a run", entry.Subject);
        Assert.Equal("cosmos.example.net", entry.Endpoint);
        // Every refusal of the launch is recorded (the key's too, the plan naming none); the allow-list's among them.
        Assert.StartsWith("of the plan “elsewhere”: ", entry.Details, StringComparison.Ordinal);
        Assert.Contains("Target.Cosmos.Endpoint: The endpoint host 'cosmos.example.net' is not on this installation's endpoint allow-list", entry.Details, StringComparison.Ordinal);
        Assert.Empty(context.Jobs.Enqueued);
    }

    [Fact]
    public async Task Launch_RefusedForAKeyPastedIntoItsTexts_IsRecordedWithoutTheKey()
    {
        // The plan's name and its Cosmos DB database hold a key: both refused, and the audit log, which quotes what was
        // refused and is never edited, keeps neither.
        await using var context = new BenchWebComponentContext();
        const string Key = "abcdefghijklmnopqrstuvwx==";
        var plan = new RunPlan
        {
            Name = $"AccountKey={Key}",
            Target = new TargetOptions { Kind = TargetKind.CosmosSql, Cosmos = new CosmosOptions { Endpoint = "https://localhost:8081/", Database = $"AccountKey={Key}" } },
        };

        var refused = await Assert.ThrowsAsync<RunPlanValidationException>(() => Runs(context).StartAsync(plan, null, null, TestActors.Runner, CancellationToken.None));

        Assert.Contains(refused.Errors, e => e.Field == "Name" && e.Message.StartsWith("Looks like it holds a credential", StringComparison.Ordinal));
        Assert.Contains(refused.Errors, e => e.Field == "Target.Cosmos.Database" && e.Message.StartsWith("Looks like it holds a credential", StringComparison.Ordinal));
        var entry = await SingleRefusalAsync(context, AuditActions.RunRefused);
        Assert.DoesNotContain(Key, entry.Details, StringComparison.Ordinal);
        Assert.Contains("AccountKey=[redacted]", entry.Details, StringComparison.Ordinal);
    }

    [Theory]
    [MemberData(nameof(OverLimitCases.Fields), MemberType = typeof(OverLimitCases))]
    public async Task Launch_OverALimit_IsRefusedAndRecorded_NamingTheField(string field)
    {
        var (limit, plan) = OverLimitCases.For(field);
        await using var context = new BenchWebComponentContext();
        await context.Services.GetRequiredService<InstallationSettingsService>().SaveAsync(limit, TestActors.Admin, CancellationToken.None);
        var profile = await context.Services.GetRequiredService<ProfileService>().CreateAsync(plan, null, TestActors.Admin, CancellationToken.None);

        await Assert.ThrowsAsync<RunPlanValidationException>(() => Runs(context).StartAsync(plan, profile.Id, null, TestActors.Runner, CancellationToken.None));

        var entry = await SingleRefusalAsync(context, AuditActions.RunRefused);
        AssertRunner(entry);
        Assert.StartsWith($"of profile #{profile.Id} “{plan.Name}”: ", entry.Details, StringComparison.Ordinal);
        Assert.Contains($"{field}: the installation allows at most ", entry.Details, StringComparison.Ordinal);
        Assert.Empty(context.Jobs.Enqueued);
    }

    [Fact]
    public async Task Launch_WithAKeyStoredForAnotherServer_IsRefusedAndRecorded_WithTheServerItWasAimedAt()
    {
        await using var context = new BenchWebComponentContext();
        var profiles = context.Services.GetRequiredService<ProfileService>();
        var id = await profiles.SaveAsync(0, ProfileForms.RedisWithKey("c2VjcmV0LWFjY2Vzcy1rZXk="), TestActors.Admin, CancellationToken.None);
        var plan = RunPlan.FromJson((await context.Services.GetRequiredService<ProfileReader>().FindAsync(id, CancellationToken.None))!.PlanJson);
        var moved = plan.MovedTo("elsewhere.redis.cache.windows.net");

        await Assert.ThrowsAsync<RunPlanValidationException>(() => Runs(context).StartAsync(moved, id, null, TestActors.Runner, CancellationToken.None));

        var entry = await SingleRefusalAsync(context, AuditActions.RunRefused);
        AssertRunner(entry);
        Assert.Equal("elsewhere.redis.cache.windows.net", entry.Endpoint);
        Assert.Equal($"of profile #{id} “cache”: Target.Redis.Host: The stored access key was stored for bench.redis.cache.windows.net:6380: store it again to use it with elsewhere.redis.cache.windows.net:6380.", entry.Details);
        Assert.DoesNotContain("c2VjcmV0LWFjY2Vzcy1rZXk=", entry.Details, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Launch_WhileLaunchingIsPaused_IsRefusedAndRecorded_WithThePause()
    {
        await using var context = new BenchWebComponentContext();
        await context.Services.GetRequiredService<KillSwitch>().EngageAsync(TestActors.Admin, "maintenance", CancellationToken.None);

        await Assert.ThrowsAsync<LaunchesPausedException>(() => Runs(context).StartAsync(new RunPlan { Name = "paused" }, null, null, TestActors.Runner, CancellationToken.None));

        var entry = await SingleRefusalAsync(context, AuditActions.RunRefused);
        AssertRunner(entry);
        Assert.StartsWith("of the plan “paused”: ", entry.Details, StringComparison.Ordinal);
        Assert.Contains("maintenance", entry.Details, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Sweep_WithAStepOverALimit_IsRefusedAndRecordedOnce_NamingTheStep()
    {
        await using var context = new BenchWebComponentContext();
        await context.Services.GetRequiredService<InstallationSettingsService>().SaveAsync(new InstallationSettings { MaxConcurrency = 5 }, TestActors.Admin, CancellationToken.None);
        var plan = new RunPlan { Name = "knee", Stop = new StopOptions { DurationSeconds = 10 } };
        var sweep = new SweepOptions { Setting = "Load.Concurrency", Values = ["2", "8", "16"] };

        await Assert.ThrowsAsync<RunPlanValidationException>(() => context.Services.GetRequiredService<SweepService>().StartAsync(plan, sweep, null, TestActors.Runner, CancellationToken.None));

        var entry = await SingleRefusalAsync(context, AuditActions.SweepRefused);
        AssertRunner(entry);
        Assert.Contains("Sweep.Values[1]: Load.Concurrency: the installation allows at most 5", entry.Details, StringComparison.Ordinal);
        Assert.Contains("Sweep.Values[2]: Load.Concurrency: the installation allows at most 5", entry.Details, StringComparison.Ordinal);
        Assert.Empty(context.Jobs.EnqueuedSweeps);
    }

    private static RunService Runs(BenchWebComponentContext context) => context.Services.GetRequiredService<RunService>();

    /// <summary>The one refusal recorded, and no launch.</summary>
    private static async Task<AuditEntryEntity> SingleRefusalAsync(BenchWebComponentContext context, string action)
    {
        await using var db = await context.Databases.CreateDbContextAsync();
        var entries = await db.AuditEntries.AsNoTracking().Where(e => e.Action.StartsWith("run.") || e.Action.StartsWith("sweep.")).ToListAsync();
        return Assert.Single(entries, e => e.Action == action);
    }

    private static void AssertRunner(AuditEntryEntity entry) =>
        Assert.Equal((TestActors.Runner.UserId, TestActors.Runner.Role, TestActors.Runner.RemoteIp), (entry.UserId, entry.Role, entry.RemoteIp));
}
