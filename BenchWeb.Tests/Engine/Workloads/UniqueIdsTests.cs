using BenchEngine.Workloads;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Engine.Workloads;

[UnitTest]
public class UniqueIdsTests
{
    [Fact]
    public void For_AMillionSequenceNumbers_GivesAMillionVersion4Guids()
    {
        // The worst key for a collision among the first bits: zero. Uniqueness holds for any key (a bijection).
        foreach (var ids in new[] { new UniqueIds(0, 0), UniqueIds.Draw() })
        {
            var seen = new HashSet<Guid>();
            for (var n = 0L; n < 1_000_000; n++)
            {
                Assert.True(seen.Add(ids.For(n)), $"sequence {n} repeated an id");
            }

            Assert.All(seen.Take(1_000), g =>
            {
                var text = g.ToString();
                Assert.Equal('4', text[14]);
                Assert.Contains(text[19], "89ab");
            });
        }
    }

    [Fact]
    public void For_IsTheSameForTheSameKeyAndNumber_AndDiffersForAnotherKey()
    {
        var ids = new UniqueIds(42, 7);

        Assert.Equal(ids.For(123), new UniqueIds(42, 7).For(123));
        Assert.NotEqual(ids.For(123), new UniqueIds(43, 7).For(123));
        Assert.NotEqual(ids.For(123), new UniqueIds(42, 8).For(123));
        Assert.Equal(ids.For(123).ToString(), ids.Next(123));
    }

    [Fact]
    public void Sources_OfTheSameSeed_DrawDifferentIds_SoTwoRunsIntoOneContainerDoNotCollide()
    {
        // The default seed is the same for every run: the documents repeat, their ids must not.
        var options = new WorkloadOptions { Shape = DocumentShape.SmallDto, PartitionKey = new PartitionKeyOptions { Strategy = PartitionKeyStrategy.Guid } };

        var first = options.Generate(1_000);
        var second = options.Generate(1_000);

        Assert.Empty(first.Select(d => d.Id).Intersect(second.Select(d => d.Id)));
        Assert.Empty(first.Select(d => d.PartitionKey).Intersect(second.Select(d => d.PartitionKey)));
        Assert.Empty(first.Select(d => d.Id).Intersect(first.Select(d => d.PartitionKey)));
        Assert.All(first, d => Assert.True(Guid.TryParse(d.PartitionKey, out var key) && key.Version == 4));
    }

    [Fact]
    public void Shards_EachDrawTheirOwnKey_AndTheirIdsNeverMeet()
    {
        // Shards read past each other's documents and draw keys of their own, as two agents' sources do.
        var shards = Enumerable.Range(0, 3)
            .Select(index => new WorkloadOptions { Shape = DocumentShape.SmallDto, Shard = new WorkloadShard(index, 3) }.Generate(1_000).Select(d => d.Id).ToList())
            .ToList();

        Assert.Equal(3_000, shards.SelectMany(s => s).Distinct().Count());
    }

    [Fact]
    public void ASourceWithAGivenKey_NumbersItsIdsBySequence_SkippingOtherShardsNumbers()
    {
        var ids = new UniqueIds(9, 9);
        var options = new WorkloadOptions { Shape = DocumentShape.SmallDto, Shard = new WorkloadShard(1, 3) };
        var fields = DocumentSourceFactory.CreateFields(options, new Random(options.Seed), TimeProvider.System);
        var keys = PartitionKeySelector.Create(new PartitionKeyOptions { Strategy = PartitionKeyStrategy.Sequence }, fields.FieldNames, new Random(1));
        using var source = new DocumentSource(fields, keys, null, "", options.Shard, ids);

        var documents = source.Take(3);

        Assert.Equal([ids.Next(1), ids.Next(4), ids.Next(7)], documents.Select(d => d.Id));
        Assert.Equal(["1", "4", "7"], documents.Select(d => d.PartitionKey));
    }
}
