using BenchEngine.Targets;
using BenchEngine.Workloads;
using Microsoft.Extensions.Time.Testing;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Engine.Targets;

[UnitTest]
public class SimulatedCosmosTargetTests
{
    private static Document Doc(string pk, int paddingBytes = 900) =>
        new(Guid.NewGuid().ToString(), pk, [new("PartitionKey", pk), new("Padding", new string('x', paddingBytes))]);

    [Fact]
    public async Task WriteAsync_Throttles_OnceThePartitionsBudgetForTheSecondIsSpent()
    {
        var time = new FakeTimeProvider();
        await using var target = new SimulatedCosmosTarget(new SimulatorOptions { ProvisionedRequestUnits = 1_000, Indexing = IndexingMode.None }, time);
        var charge = target.ChargeFor(Doc("a"));
        var fits = (int)(1_000 / charge);

        time.Advance(TimeSpan.FromMilliseconds(250));
        var writes = Enumerable.Range(0, fits + 5).Select(_ => target.WriteAsync([Doc("a")], WriteOperation.Create, CancellationToken.None)).ToList();
        time.Advance(TimeSpan.FromSeconds(0.5));
        var outcomes = await Task.WhenAll(writes);

        Assert.Equal(5, charge, 6);
        Assert.Equal(fits, outcomes.Count(o => o.Kind == OutcomeKind.Ok));
        var throttled = outcomes.Where(o => o.Kind == OutcomeKind.Throttled).ToList();
        Assert.Equal(5, throttled.Count);
        Assert.All(throttled, o => Assert.Equal(429, o.StatusCode));
        Assert.All(throttled, o => Assert.Equal(TimeSpan.FromMilliseconds(750), o.RetryAfter));
    }

    [Fact]
    public async Task WriteAsync_RefillsTheBudget_EachSecond()
    {
        var time = new FakeTimeProvider();
        await using var target = new SimulatedCosmosTarget(new SimulatorOptions { ProvisionedRequestUnits = 400, Indexing = IndexingMode.None }, time);

        async Task<int> OkInOneSecondAsync()
        {
            var writes = Enumerable.Range(0, 200).Select(_ => target.WriteAsync([Doc("k")], WriteOperation.Create, CancellationToken.None)).ToList();
            time.Advance(TimeSpan.FromSeconds(1));
            return (await Task.WhenAll(writes)).Count(o => o.Kind == OutcomeKind.Ok);
        }

        Assert.Equal(80, await OkInOneSecondAsync());
        Assert.Equal(80, await OkInOneSecondAsync());
        Assert.Equal(160, await target.CountAsync(CancellationToken.None));
    }

    [Fact]
    public async Task ChargeFor_FollowsTheDocumentedCosts()
    {
        var time = new FakeTimeProvider();
        await using var indexed = new SimulatedCosmosTarget(new SimulatorOptions { Indexing = IndexingMode.Consistent }, time);
        await using var unindexed = new SimulatedCosmosTarget(new SimulatorOptions { Indexing = IndexingMode.None }, time);
        var fields = Enumerable.Range(0, 9).Select(i => new KeyValuePair<string, object?>("f" + i, new string('v', 100))).ToList();
        var kilobyte = new Document(Guid.NewGuid().ToString(), "p", fields);

        Assert.Equal(5, unindexed.ChargeFor(kilobyte), 1);
        Assert.Equal(7, indexed.ChargeFor(kilobyte), 1);
    }

    [Fact]
    public void Partitions_SplitProvisionedThroughput_AtMost10000RuEach()
    {
        var time = new FakeTimeProvider();

        Assert.Equal(1, new SimulatedCosmosTarget(new SimulatorOptions { ProvisionedRequestUnits = 5_000 }, time).PartitionCount);
        Assert.Equal(3, new SimulatedCosmosTarget(new SimulatorOptions { ProvisionedRequestUnits = 25_000 }, time).PartitionCount);
        Assert.Equal(5, new SimulatedCosmosTarget(new SimulatorOptions { ProvisionedRequestUnits = 10_000, PhysicalPartitions = 5 }, time).PartitionCount);
    }

    [Theory]
    [InlineData(0)]
    [InlineData(250)]
    [InlineData(500)]
    [InlineData(999)]
    public async Task WriteAsync_NeverGrantsMoreThanProvisioned_InAnyFullSecondOfTheRun_AtAnyStartOffset(int offsetMs)
    {
        // The target is opened, and the run's clock starts some time later. A client that sends as fast as it can spends
        // the budget as soon as it is there: budget windows that straddle the run's seconds grant one second nearly twice.
        var time = new FakeTimeProvider();
        await using var target = new SimulatedCosmosTarget(new SimulatorOptions { ProvisionedRequestUnits = 1_000, Indexing = IndexingMode.None, MedianLatencyMs = 1 }, time);
        time.Advance(TimeSpan.FromMilliseconds(offsetMs));
        var runStart = time.GetTimestamp();
        ((IInsertTarget)target).RunClockStarted(runStart);

        var consumed = new double[4];
        for (var step = 0; step < 400; step++)
        {
            var second = (int)time.GetElapsedTime(runStart).TotalSeconds;
            var writes = Enumerable.Range(0, 20).Select(_ => target.WriteAsync([Doc("a")], WriteOperation.Create, CancellationToken.None)).ToList();
            time.Advance(TimeSpan.FromMilliseconds(10));
            foreach (var outcome in await Task.WhenAll(writes))
            {
                consumed[second] += outcome.Kind == OutcomeKind.Ok ? outcome.RequestUnits : 0;
            }
        }

        Assert.All(consumed, ru => Assert.InRange(ru, 900, 1_000));
    }
}
