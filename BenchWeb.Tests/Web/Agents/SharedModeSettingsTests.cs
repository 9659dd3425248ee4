using BenchEngine.Running;
using BenchWeb.Configuration;
using BenchWeb.Data;
using BenchWeb.Fleet;
using BenchWeb.Tests.Support;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Options;

namespace BenchWeb.Tests.Web.Agents;

/// <summary>Shared mode's settings, checked at start with messages that name the setting (never its value), and how a
/// run spread over agents ends, from how its shards ended.</summary>
[UnitTest]
public sealed class SharedModeSettingsTests
{
    [Fact]
    public void Embedded_IsTheDefault_AndNeedsNothing()
    {
        Assert.Null(SharedMode.Read(Configuration([]), new BenchWebOptions()));
    }

    [Theory]
    [InlineData(null, "127.0.0.1:6379", "set ConnectionStrings:BenchDb")]
    [InlineData("Host=db;Password=hunter2;Nonsense Key=1", "127.0.0.1:6379", "is not an Npgsql (PostgreSQL) connection string")]
    [InlineData("Host=db;Password=hunter2", null, "set ConnectionStrings:Redis")]
    [InlineData("Host=db;Password=hunter2", "127.0.0.1:6379,password=hunter2,nosuchoption=1", "is not a StackExchange.Redis configuration string")]
    public void Shared_WithoutAUsableDatabaseOrRedis_StopsTheStart_NamingTheSetting_NeverItsValue(string? database, string? redis, string message)
    {
        var configuration = Configuration(new()
        {
            ["ConnectionStrings:BenchDb"] = database,
            ["ConnectionStrings:Redis"] = redis,
        });

        var error = Assert.Throws<OptionsValidationException>(() => SharedMode.Read(configuration, new BenchWebOptions { Mode = DeploymentMode.Shared }));

        Assert.Contains(message, error.Message, StringComparison.Ordinal);
        Assert.DoesNotContain("hunter2", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void ARole_InEmbeddedMode_IsRefused()
    {
        var error = Assert.Throws<OptionsValidationException>(() => SharedMode.Read(Configuration([]), new BenchWebOptions { Agent = new AgentOptions { Role = AgentRole.Web } }));

        Assert.Contains("Mode to Shared", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Outcome_AFailedShard_FailsTheRun_NamingItsAgent()
    {
        var (status, reason, _) = DistributedRuns.Outcome(Run(), [Shard(0, RunStatus.Completed), Shard(1, RunStatus.Failed, "the target could not be opened")]);

        Assert.Equal(RunStatus.Failed, status);
        Assert.Equal("Agent agent-1 (shard 2 of 2) failed: the target could not be opened", reason);
    }

    [Fact]
    public void Outcome_ALostAgent_InterruptsTheRun_AndSaysTheOthersFinished()
    {
        var (status, reason, _) = DistributedRuns.Outcome(Run(), [Shard(0, RunStatus.Completed), Shard(1, RunStatus.Interrupted, "interrupted: its agent stopped heartbeating"), Shard(2, RunStatus.Completed)]);

        Assert.Equal(RunStatus.Interrupted, status);
        Assert.StartsWith("Agent agent-1 (shard 2 of 3): interrupted", reason, StringComparison.Ordinal);
        Assert.Contains("The other 2 shards finished", reason, StringComparison.Ordinal);
    }

    [Fact]
    public void Outcome_ACancel_CancelsTheRun_AndAllCompleted_CompletesIt_WithOneStopReason()
    {
        var cancelled = Run();
        cancelled.CancelRequestedAt = DateTimeOffset.UnixEpoch;
        Assert.Equal(RunStatus.Cancelled, DistributedRuns.Outcome(cancelled, [Shard(0, RunStatus.Cancelled), Shard(1, RunStatus.Cancelled)]).Status);

        var (status, reason, stopReason) = DistributedRuns.Outcome(Run(), [Shard(0, RunStatus.Completed), Shard(1, RunStatus.Completed)]);
        Assert.Equal(RunStatus.Completed, status);
        Assert.Null(reason);
        Assert.Equal("ran for 10 s", stopReason);
    }

    private static RunEntity Run() => new() { ProfileName = "spread", PlanJson = new RunPlan().ToJson(), Status = RunStatus.Running, ShardCount = 2 };

    private static RunShardEntity Shard(int index, RunStatus status, string? reason = null) =>
        new() { Index = index, AgentId = $"id{index}", AgentName = $"agent-{index}", Status = status, FailureReason = reason, StopReason = "ran for 10 s" };

    private static IConfiguration Configuration(Dictionary<string, string?> values) => new ConfigurationBuilder().AddInMemoryCollection(values).Build();
}
