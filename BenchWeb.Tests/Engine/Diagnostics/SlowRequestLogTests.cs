using BenchEngine.Diagnostics;
using BenchEngine.Targets;
using BenchEngine.Workloads;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Engine.Diagnostics;

[UnitTest]
public class SlowRequestLogTests
{
    private const string Key = "U2VjcmV0S2V5TWFya2VyRm9yVGhlQmVuY2hXZWJUZXN0cw==";
    private const string ConnectionString = $"DefaultEndpointsProtocol=http;AccountName=acct;AccountKey={Key};TableEndpoint=http://127.0.0.1:10002/acct;";

    private static SlowRequestCandidate Candidate(double ms, object? diagnostics = null) =>
        new(TimeSpan.FromMilliseconds(ms).Ticks, OperationOutcome.Ok(201, 1, 0, 10) with { Diagnostics = diagnostics }, 1);

    private static SlowRequestLog Log(Func<SlowRequestFacts, RequestDescription> describe, params string[] secrets) =>
        new(new DescribingTarget(describe), () => secrets);

    [Fact]
    public void Add_KeepsTheSlowest200OfARun_AndNamesThoseItPushesOut()
    {
        var log = Log(f => new RequestDescription("line", "text"));
        var removed = new List<int>();
        for (var second = 0; second < 25; second++)
        {
            // Ten a second, each second slower than the one before.
            var change = log.Add(second, [.. Enumerable.Range(0, 10).Select(i => Candidate(100 + (second * 10) + i))]);
            removed.AddRange(change.Removed);
        }

        Assert.Equal(DiagnosticsOptions.MaxEntries, log.Entries.Count);
        Assert.Equal(50, log.NotKept);
        Assert.Equal(Enumerable.Range(0, 50), removed.Order());
        Assert.Equal(5, log.Entries.Min(e => e.Second));
        Assert.Equal(150, log.Entries.Min(e => e.LatencyMs), 3);
    }

    [Fact]
    public void Add_DoesNotDescribeARequestFasterThanAFullRunsFastest()
    {
        var described = 0;
        var log = Log(f => { described++; return new RequestDescription("line", "text"); });
        for (var second = 0; second < 20; second++)
        {
            log.Add(second, [.. Enumerable.Range(0, 10).Select(_ => Candidate(500))]);
        }

        var change = log.Add(20, [Candidate(10)]);

        Assert.True(change.IsEmpty);
        Assert.Equal(200, described);
        Assert.Equal(1, log.NotKept);
    }

    [Fact]
    public void Add_CutsALongTextAt64KBWithAMarker()
    {
        var log = Log(f => new RequestDescription("line", new string('x', 100_000)));

        var entry = Assert.Single(log.Add(0, [Candidate(300)]).Added).Request;

        Assert.True(entry.Truncated);
        Assert.Equal(DiagnosticsOptions.MaxTextLength, entry.Text.Length);
        Assert.EndsWith("[truncated: the text was 100,000 characters; the first 65,536 are kept, this line included]", entry.Text, StringComparison.Ordinal);
    }

    [Fact]
    public void Add_KeepsAtMost5MBOfText_TheSlowest()
    {
        var log = Log(f => new RequestDescription("line", new string('x', 60_000)));
        for (var second = 0; second < 15; second++)
        {
            log.Add(second, [.. Enumerable.Range(0, 10).Select(i => Candidate(100 + (second * 10) + i))]);
        }

        var kept = log.Entries;
        Assert.InRange(kept.Sum(e => (long)e.Text.Length + e.Summary.Length), DiagnosticsOptions.MaxTotalLength - 60_010, DiagnosticsOptions.MaxTotalLength);
        Assert.Equal(DiagnosticsOptions.MaxTotalLength / 60_004, kept.Count);
        Assert.Equal(249, kept.Max(e => e.LatencyMs), 3);
    }

    [Fact]
    public void Add_RemovesTheRunsSecretsAndAnythingShapedLikeACredential()
    {
        var text = $$"""
            connection: {{ConnectionString}}
            key alone: {{Key}}
            key escaped: {{Uri.EscapeDataString(Key)}}
            url: https://acct.blob.core.windows.net/c/b?sv=2024-05-04&sig=abcDEF123%2B%2F&se=2026
            header: Authorization: SharedKey acct:c2lnbmF0dXJl
            json: {"authorization":"type=master&ver=1.0&sig=QUJD"}
            endpoint: http://127.0.0.1:10002/acct
            """;
        var log = Log(f => new RequestDescription($"line {Key}", text), ConnectionString);

        var entry = Assert.Single(log.Add(0, [Candidate(300)]).Added).Request;

        var all = entry.Text + entry.Summary;
        Assert.DoesNotContain(Key, all, StringComparison.Ordinal);
        Assert.DoesNotContain(Uri.EscapeDataString(Key), all, StringComparison.Ordinal);
        Assert.DoesNotContain("abcDEF123", all, StringComparison.Ordinal);
        Assert.DoesNotContain("c2lnbmF0dXJl", all, StringComparison.Ordinal);
        Assert.DoesNotContain("QUJD", all, StringComparison.Ordinal);
        Assert.Contains("http://127.0.0.1:10002/acct", entry.Text, StringComparison.Ordinal);
        Assert.Contains("sv=2024-05-04&sig=[redacted]&se=2026", entry.Text, StringComparison.Ordinal);
    }

    [Fact]
    public void Add_KeepsWhatTheEngineMeasured_WhenTheTargetCannotDescribeTheRequest()
    {
        var log = Log(f => throw new ObjectDisposedException("response"));

        var entry = Assert.Single(log.Add(3, [Candidate(250)]).Added).Request;

        Assert.Equal((3, 250.0, 201), (entry.Second, entry.LatencyMs, entry.StatusCode));
        Assert.Contains("could not describe this request (ObjectDisposedException)", entry.Text, StringComparison.Ordinal);
    }

    [Fact]
    public void Add_WritesControlAndDirectionCharactersAsTheirCodes()
    {
        var log = Log(f => new RequestDescription("a\u202Eb", "line one\nline\u0007two\u200F"));

        var entry = Assert.Single(log.Add(0, [Candidate(300)]).Added).Request;

        Assert.Equal("line one\nline\\u0007two\\u200F", entry.Text);
        Assert.Equal("a\\u202Eb", entry.Summary);
    }

    /// <summary>A target whose descriptions a test writes.</summary>
    private sealed class DescribingTarget(Func<SlowRequestFacts, RequestDescription> describe) : IInsertTarget
    {
        public string Description => "a target";

        public bool IsModel => true;

        public double? ProvisionedRequestUnits => null;

        public Task InitializeAsync(CancellationToken cancellationToken) => Task.CompletedTask;

        public Task<OperationOutcome> WriteAsync(IReadOnlyList<Document> documents, WriteOperation operation, CancellationToken cancellationToken) =>
            Task.FromResult(OperationOutcome.Ok(201, 1, 0, 0));

        public RequestDescription DescribeRequest(in SlowRequestFacts request) => describe(request);

        public Task<long> CountAsync(CancellationToken cancellationToken) => Task.FromResult(0L);

        public ValueTask DisposeAsync() => ValueTask.CompletedTask;
    }
}
