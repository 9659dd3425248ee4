using BenchEngine.Metrics;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Engine.Running;

/// <summary>A run spread over agents, in the engine: each shard's share of the plan, of the workload and of a model's
/// capacity, and the merge of what the shards measured.</summary>
[UnitTest]
public sealed class ShardTests
{
    [Theory]
    [InlineData(10, 3)]
    [InlineData(3_001, 3)]
    [InlineData(7, 7)]
    [InlineData(100, 64)]
    public void ForShard_SplitsWorkersRateAndDocuments_SoTheSharesAddUpToThePlan(int concurrency, int count)
    {
        var plan = new RunPlan
        {
            Load = new LoadOptions { Model = LoadModel.OpenLoop, Concurrency = concurrency, RatePerSecond = 900, Agents = count },
            Stop = new StopOptions { TotalDocuments = 10_007, DurationSeconds = 30 },
        };

        var shards = Enumerable.Range(0, count).Select(i => plan.ForShard(i, count)).ToList();

        Assert.Equal(concurrency, shards.Sum(s => s.Load.Concurrency));
        Assert.All(shards, s => Assert.InRange(s.Load.Concurrency, concurrency / count, (concurrency / count) + 1));
        Assert.Equal(10_007, shards.Sum(s => s.Stop.TotalDocuments));
        Assert.Equal(900, shards.Sum(s => s.Load.RatePerSecond!.Value), 6);
        Assert.All(shards, s => Assert.Equal(30, s.Stop.DurationSeconds));
        Assert.All(shards, s => Assert.Equal(1, s.Load.Agents));
        Assert.Equal(Enumerable.Range(0, count), shards.Select(s => s.Workload.Shard!.Index));
        Assert.All(shards, s => Assert.Empty(s.Validate()));
    }

    [Theory]
    [InlineData(DocumentShape.BulkRecord)]
    [InlineData(DocumentShape.SmallDto)]
    public void ShardsOfAWorkload_WriteEachDocumentOnce_NoSequenceKeyTwice(DocumentShape shape)
    {
        // The bulk record's partition key is its sequence number: across three shards, 0…2,999 each exactly once.
        const int Count = 3;
        var plan = new RunPlan { Workload = new WorkloadOptions { Shape = shape, PartitionKey = new PartitionKeyOptions { Strategy = PartitionKeyStrategy.Sequence } }, Stop = new StopOptions { TotalDocuments = 3_000 } };
        var keys = new List<string>();
        var ids = new HashSet<string>();
        for (var i = 0; i < Count; i++)
        {
            var shard = plan.ForShard(i, Count);
            using var source = DocumentSourceFactory.Create(shard.Workload, TimeProvider.System);
            for (var n = 0; n < shard.Stop.TotalDocuments; n++)
            {
                Assert.True(source.TryNext(out var document));
                keys.Add(document.PartitionKey);
                Assert.True(ids.Add(document.Id));
            }
        }

        Assert.Equal(Enumerable.Range(0, 3_000).Select(n => n.ToString(System.Globalization.CultureInfo.InvariantCulture)).Order(StringComparer.Ordinal), keys.Order(StringComparer.Ordinal));
    }

    [Fact]
    public void ShardsOfACsvFile_ReadEveryRecordOnce_BetweenThem()
    {
        var path = Path.Combine(Path.GetTempPath(), $"shards-{Guid.NewGuid():N}.csv");
        File.WriteAllLines(path, ["Origin,Number", .. Enumerable.Range(0, 101).Select(n => $"SEA,{n}")]);
        try
        {
            var workload = new WorkloadOptions { Shape = DocumentShape.CsvFile, CsvPath = path };
            var numbers = new List<string>();
            for (var i = 0; i < 4; i++)
            {
                using var source = DocumentSourceFactory.Create(workload with { Shard = new WorkloadShard(i, 4) }, TimeProvider.System);
                while (source.TryNext(out var document))
                {
                    numbers.Add(document.Fields.Single(f => f.Key == "Number").Value!.ToString()!);
                }
            }

            Assert.Equal(Enumerable.Range(0, 101).Select(n => n.ToString(System.Globalization.CultureInfo.InvariantCulture)).Order(StringComparer.Ordinal), numbers.Order(StringComparer.Ordinal));
        }
        finally
        {
            File.Delete(path);
        }
    }

    [Fact]
    public void TheSimulatorsShards_ModelOneAccount_EachWithItsShareOfTheBudget()
    {
        var plan = new RunPlan { Target = new TargetOptions { Kind = TargetKind.Simulated, Simulator = new SimulatorOptions { ProvisionedRequestUnits = 1_000 } } };

        var shard = plan.ForShard(1, 4);

        Assert.Equal(4, shard.Target.Simulator.Shards);
        Assert.Equal(1_000, shard.Target.Simulator.ProvisionedRequestUnits);
        Assert.Empty(shard.Validate());

        // A real service is shared as it is.
        var tables = new RunPlan { Target = new TargetOptions { Kind = TargetKind.TableStorage } };
        Assert.Equal(tables.Target, tables.ForShard(1, 4).Target);
    }

    [Theory]
    [InlineData(-1, "Between 1 and 64")]
    [InlineData(65, "Between 1 and 64")]
    [InlineData(20, "at least one worker")]
    public void Agents_OutOfBounds_AreRefusedOnTheirField(int agents, string message)
    {
        var plan = new RunPlan { Load = new LoadOptions { Concurrency = 10, Agents = agents } };

        var error = Assert.Single(plan.Validate(), e => e.Field == "Load.Agents");
        Assert.Contains(message, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void AnEncodedDistribution_DecodesToTheSameValues_AndMergesExactly()
    {
        var random = new Random(5);
        var parts = Enumerable.Range(0, 3).Select(_ => new LatencyDistribution()).ToList();
        var all = new LatencyDistribution();
        for (var i = 0; i < 30_000; i++)
        {
            var value = (long)(1_000 * Math.Exp(random.NextDouble() * 4));
            parts[i % 3].RecordMicroseconds(value);
            all.RecordMicroseconds(value);
        }

        var merged = ShardMerge.Merge(parts.Select(p => p.Encode()));

        Assert.Equal(all.Count, merged.Count);
        Assert.Equal(all.MaxMicroseconds, merged.MaxMicroseconds);
        Assert.Equal(all.MeanMicroseconds, merged.MeanMicroseconds, 9);
        foreach (var percentile in new[] { 50, 90, 99, 99.9 })
        {
            Assert.Equal(all.ValueAtPercentile(percentile), merged.ValueAtPercentile(percentile));
        }

        // Averaging the parts' p99 is not the same thing, and the merge never does it.
        Assert.Throws<InvalidDataException>(() => LatencyDistribution.Decode(new byte[20]));
    }

    [Fact]
    public void CombineSecond_AddsCountsUp_TakesTheBusiestClient_AndMergesTheLatencies()
    {
        var a = new LatencyDistribution();
        var b = new LatencyDistribution();
        a.RecordMicroseconds(1_000);
        b.RecordMicroseconds(9_000);
        b.RecordMicroseconds(9_500);
        var first = new SecondSnapshot { Index = 2, Duration = TimeSpan.FromSeconds(1), Ok = 10, OkRequests = 10, Throttled = 1, RequestUnits = 50, ClientCpuPercent = 20, ErrorsByStatus = new Dictionary<int, long> { [409] = 1 }, Errors = 1, LatencyHistogram = a.Encode() };
        var second = new SecondSnapshot { Index = 2, Duration = TimeSpan.FromSeconds(0.5), Ok = 5, OkRequests = 5, Throttled = 2, RequestUnits = 25, ClientCpuPercent = 70, ErrorsByStatus = new Dictionary<int, long> { [409] = 2, [500] = 1 }, Errors = 3, LatencyHistogram = b.Encode() };

        var combined = ShardMerge.CombineSecond(2, [first, second]);

        Assert.Equal(15, combined.Ok);
        Assert.Equal(3, combined.Throttled);
        Assert.Equal(75, combined.RequestUnits);
        Assert.Equal(4, combined.Errors);
        Assert.Equal(3, combined.ErrorsByStatus[409]);
        Assert.Equal(1, combined.ErrorsByStatus[500]);
        Assert.Equal(70, combined.ClientCpuPercent);
        Assert.Equal(TimeSpan.FromSeconds(1), combined.Duration);
        Assert.Equal(9.5, combined.LatencyMaxMs);
        Assert.Equal(9.0, combined.LatencyP50Ms!.Value, 1);
    }
}
