using BenchEngine.Diagnostics;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Integration;

/// <summary>The Redis target's slow-request diagnostics against redis-server: the command, the server, StackExchange.Redis's
/// profile of each SET of the pipeline and the connection's queues, and never the access key.</summary>
[Collection(RedisCollection.Name)]
[IntegrationTest]
public class SlowRequestDiagnosticsRedisTests
{
    private const string KeySecret = "REDIS_ACCESS_KEY";

    [Theory]
    [InlineData(1, true)]
    [InlineData(1, false)]
    [InlineData(5, true)]
    public async Task RunAsync_KeepsTheCommandServerProfiledTimingsAndQueues_AndNeverTheAccessKey(int batchSize, bool profile)
    {
        const string password = "benchweb-redis-secret-marker-key";
        await using var server = await RedisServer.StartAsync(password);
        var plan = new RunPlan
        {
            Name = "redis diagnostics",
            Target = new TargetOptions
            {
                Kind = TargetKind.Redis,
                Redis = new RedisOptions { Host = "127.0.0.1", Port = server.Port, UseTls = false, UseAccessKey = true, AccessKeySecret = KeySecret, KeyPrefix = "d" + Guid.NewGuid().ToString("N")[..8] + ":", ProfileCommands = profile },
            },
            Load = new LoadOptions { Concurrency = 4, BatchSize = batchSize },
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
            Assert.Contains($"keys that landed: {batchSize}", entry.Text, StringComparison.Ordinal);
            if (!profile)
            {
                // Profiling costs the client CPU on every SET, so it is the plan's choice, and the text says how to turn it on.
                Assert.Contains("profiled commands (0; StackExchange.Redis: created → queued → sent → answered → completed): off (turn on “Profile each command”", entry.Text, StringComparison.Ordinal);
                Assert.DoesNotContain("server answered in", entry.Summary, StringComparison.Ordinal);
            }
            else if (batchSize == 1)
            {
                // The SET with the client's timings of each of its stages.
                Assert.Contains("profiled commands (1;", entry.Text, StringComparison.Ordinal);
                Assert.Matches(
                    $@"SET(NX)? to (Unspecified/)?127\.0\.0\.1:{server.Port} \(database 0\), created [0-9:.]+ UTC: queued after [0-9.,]+ ms, sent after [0-9.,]+ ms, answered after [0-9.,]+ ms, completed after [0-9.,]+ ms; in all [0-9.,]+ ms",
                    entry.Text);
                Assert.Contains("server answered in", entry.Summary, StringComparison.Ordinal);
            }
            else
            {
                // The client profiles no command of a pipeline, and the text says so.
                Assert.Contains("profiled commands (0; StackExchange.Redis: created → queued → sent → answered → completed): none (StackExchange.Redis does not profile the commands of a batch", entry.Text, StringComparison.Ordinal);
            }

            Assert.Matches(@"\d+ waiting to be sent, \d+ sent and awaiting their answer", entry.Text);
            Assert.DoesNotContain(password, entry.Text + entry.Summary + entry.Target, StringComparison.Ordinal);
        });
    }
}
