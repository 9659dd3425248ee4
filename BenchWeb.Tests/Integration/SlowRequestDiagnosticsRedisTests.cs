using BenchEngine.Diagnostics;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Integration;

/// <summary>The Redis target's slow-request diagnostics against redis-server: the command, the server and the connection's
/// queues (profiling stays off), and never the access key.</summary>
[Collection(RedisCollection.Name)]
[IntegrationTest]
public class SlowRequestDiagnosticsRedisTests
{
    private const string KeySecret = "REDIS_ACCESS_KEY";

    [Fact]
    public async Task RunAsync_KeepsTheCommandServerAndQueues_AndNeverTheAccessKey()
    {
        const string password = "benchweb-redis-secret-marker-key";
        await using var server = await RedisServer.StartAsync(password);
        var plan = new RunPlan
        {
            Name = "redis diagnostics",
            Target = new TargetOptions
            {
                Kind = TargetKind.Redis,
                Redis = new RedisOptions { Host = "127.0.0.1", Port = server.Port, UseTls = false, UseAccessKey = true, AccessKeySecret = KeySecret, KeyPrefix = "d" + Guid.NewGuid().ToString("N")[..8] + ":" },
            },
            Load = new LoadOptions { Concurrency = 4, BatchSize = 5 },
            Stop = new StopOptions { TotalDocuments = 2_000 },
            Diagnostics = new DiagnosticsOptions { ThresholdMs = 0 },
        };

        var result = await new BenchmarkRunner().RunAsync(plan, new TargetContext(TimeProvider.System, name => name == KeySecret ? password : null));

        Assert.Equal(RunStatus.Completed, result.Status);
        Assert.NotEmpty(result.SlowRequests);
        Assert.All(result.SlowRequests, entry =>
        {
            Assert.Equal((200, OutcomeKind.Ok), (entry.StatusCode, entry.Outcome));
            Assert.Contains($"SET to 127.0.0.1:{server.Port}", entry.Summary, StringComparison.Ordinal);
            Assert.Contains("keys that landed: 5", entry.Text, StringComparison.Ordinal);
            Assert.Contains("profiling: off", entry.Text, StringComparison.Ordinal);
            Assert.Matches(@"\d+ waiting to be sent, \d+ sent and awaiting their answer", entry.Text);
            Assert.DoesNotContain(password, entry.Text + entry.Summary + entry.Target, StringComparison.Ordinal);
        });
    }
}
