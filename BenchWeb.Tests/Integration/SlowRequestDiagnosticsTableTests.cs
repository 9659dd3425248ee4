using BenchEngine.Diagnostics;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Integration;

/// <summary>The Table Storage target's slow-request diagnostics against Azurite: each kept request names the service's request
/// id and the client's, and no text holds the account key or the connection string.</summary>
[Collection(AzuriteCollection.Name)]
[IntegrationTest]
public class SlowRequestDiagnosticsTableTests(AzuriteServer azurite)
{
    private const string Secret = "TABLES_CONNECTION_STRING";

    private TargetContext Context => StorageTargets.Context(Secret, azurite.ConnectionString);

    private static TargetOptions Table(string name) =>
        new() { Kind = TargetKind.TableStorage, Tables = new TableOptions { TableName = name } };

    [Fact]
    public async Task RunAsync_KeepsRequestIdsAndNoCredential_WhenEveryRequestIsKept()
    {
        var plan = StorageTargets.Plan(Table("t" + Guid.NewGuid().ToString("N")[..16]), concurrency: 4, documents: 300) with
        {
            Diagnostics = new DiagnosticsOptions { ThresholdMs = 0 },
        };

        var result = await new BenchmarkRunner().RunAsync(plan, Context);

        Assert.Equal(RunStatus.Completed, result.Status);
        Assert.NotEmpty(result.SlowRequests);
        Assert.All(result.SlowRequests, entry =>
        {
            Assert.Equal(OutcomeKind.Ok, entry.Outcome);
            Assert.Matches(@"x-ms-request-id: [0-9a-f-]{36}", entry.Text);
            Assert.Matches(@"x-ms-client-request-id: [0-9a-f-]{36}", entry.Text);
            Assert.Contains("request id ", entry.Summary, StringComparison.Ordinal);
            Assert.Contains("0 retries inside the SDK", entry.Text, StringComparison.Ordinal);
            SecretsAbsent(entry, azurite.ConnectionString);
        });
        Assert.All(result.SlowRequests.GroupBy(r => r.Second), second => Assert.InRange(second.Count(), 1, DiagnosticsOptions.MaxPerSecond));
        Assert.Equal(300, result.Summary.TotalOk);
    }

    [Fact]
    public async Task DescribeRequest_OfAConflict_NamesTheServicesErrorCodeAndRequestId()
    {
        await using var target = await StorageTargets.OpenAsync(Table("t" + Guid.NewGuid().ToString("N")[..16]), Context);
        var document = new Document("row", "pk", [new("Value", 1)]);
        await target.WriteAsync([document], WriteOperation.Create, CancellationToken.None);

        var conflict = await target.WriteAsync([document], WriteOperation.Create, CancellationToken.None);
        var described = target.DescribeRequest(new SlowRequestFacts(conflict, TimeSpan.FromMilliseconds(12.5), 1));

        Assert.Equal(409, conflict.StatusCode);
        Assert.Contains("x-ms-error-code: EntityAlreadyExists", described.Text, StringComparison.Ordinal);
        Assert.Matches(@"x-ms-request-id: [0-9a-f-]{36}", described.Text);
        Assert.StartsWith("409 error · 12.5 ms", described.Summary, StringComparison.Ordinal);
    }

    /// <summary>Neither the connection string nor the account key in it, in any part of an entry.</summary>
    internal static void SecretsAbsent(SlowRequest entry, string connectionString)
    {
        var all = entry.Text + entry.Summary + entry.Target;
        Assert.DoesNotContain(connectionString, all, StringComparison.Ordinal);
        Assert.DoesNotContain(AzuriteService.DevelopmentKey, all, StringComparison.Ordinal);
        Assert.DoesNotContain(Uri.EscapeDataString(AzuriteService.DevelopmentKey), all, StringComparison.Ordinal);
        Assert.DoesNotMatch(@"(?i)(sig|AccountKey)=(?!\[redacted\])", all);
        Assert.DoesNotMatch(@"(?i)authorization\s*[:=]\s*(?!\[redacted\])", all);
    }
}
