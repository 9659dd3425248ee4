using System.Globalization;
using BenchEngine.Workloads;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Engine.Workloads;

[UnitTest]
public sealed class PartitionKeyStrategyTests
{
    [Fact]
    public void Guid_GivesEachDocumentANewKey_AndMirrorsItInThePartitionKeyField()
    {
        var documents = new WorkloadOptions { Shape = DocumentShape.SmallDto }.Generate(1_000);

        Assert.All(documents, d =>
        {
            Assert.True(Guid.TryParse(d.PartitionKey, out _));
            Assert.Equal(d.PartitionKey, d.Field("PartitionKey"));
        });
        Assert.Equal(documents.Count, documents.Select(d => d.PartitionKey).Distinct().Count());
    }

    [Fact]
    public void Sequence_CountsUpFromZero()
    {
        var documents = new WorkloadOptions
        {
            Shape = DocumentShape.PerformanceData,
            PartitionKey = new() { Strategy = PartitionKeyStrategy.Sequence },
        }.Generate(500);

        Assert.Equal(
            Enumerable.Range(0, 500).Select(i => (long)i),
            documents.Select(d => long.Parse(d.PartitionKey, CultureInfo.InvariantCulture)));
    }

    [Fact]
    public void Sequence_IsTheDefault_ForBulkRecords_AndEqualsTheRecordNumber()
    {
        var documents = new WorkloadOptions { Shape = DocumentShape.BulkRecord }.Generate(100);

        Assert.All(documents, d =>
            Assert.Equal(d.PartitionKey, ((long)d.Field("RecordNumber")!).ToString(CultureInfo.InvariantCulture)));
        Assert.Equal("0", documents[0].PartitionKey);
    }

    [Fact]
    public void FieldValue_EqualsTheField_AndIsMirroredInThePartitionKeyField()
    {
        var documents = new WorkloadOptions
        {
            Shape = DocumentShape.SmallDto,
            PartitionKey = new() { Strategy = PartitionKeyStrategy.FieldValue, Field = "SomeText" },
        }.Generate(200);

        Assert.All(documents, d =>
        {
            Assert.Equal(d.Text("SomeText"), d.PartitionKey);
            Assert.Equal(d.PartitionKey, d.Field("PartitionKey"));
        });
    }

    [Fact]
    public void FieldValue_FormatsNumbersInvariantly_WhenTheFieldIsNotAString()
    {
        var documents = new WorkloadOptions
        {
            Shape = DocumentShape.SmallDto,
            PartitionKey = new() { Strategy = PartitionKeyStrategy.FieldValue, Field = "KeyNumber" },
        }.Generate(50);

        Assert.All(documents, d =>
            Assert.Equal(((int)d.Field("KeyNumber")!).ToString(CultureInfo.InvariantCulture), d.PartitionKey));
    }

    [Fact]
    public void FixedKeys_CyclesThroughExactlyNKeys()
    {
        var documents = new WorkloadOptions
        {
            Shape = DocumentShape.Flight,
            PartitionKey = new() { Strategy = PartitionKeyStrategy.FixedKeys, KeyCount = 7 },
        }.Generate(700);

        Assert.Equal(
            Enumerable.Range(0, 7).Select(i => $"pk-{i}"),
            documents.Select(d => d.PartitionKey).Distinct().Order(StringComparer.Ordinal));
        Assert.Equal(["pk-0", "pk-1", "pk-2", "pk-3", "pk-4", "pk-5", "pk-6", "pk-0"], documents.Take(8).Select(d => d.PartitionKey));
        Assert.All(documents.CountBy(d => d.PartitionKey), c => Assert.Equal(100, c.Value));
    }

    [Fact]
    public void FixedKeys_StillCycles_WhenThereAreMoreKeysThanAreCached()
    {
        var documents = new WorkloadOptions
        {
            Shape = DocumentShape.SmallDto,
            PartitionKey = new() { Strategy = PartitionKeyStrategy.FixedKeys, KeyCount = 5_000 },
        }.Generate(5_001);

        Assert.Equal("pk-4999", documents[4_999].PartitionKey);
        Assert.Equal("pk-0", documents[5_000].PartitionKey);
        Assert.Equal(5_000, documents.Select(d => d.PartitionKey).Distinct().Count());
    }

    [Fact]
    public void HotKey_TakesItsFraction_AndSpreadsTheRestOverTheOtherKeys()
    {
        var documents = new WorkloadOptions
        {
            Shape = DocumentShape.SmallDto,
            PartitionKey = new() { Strategy = PartitionKeyStrategy.HotKey, KeyCount = 10, HotKeyFraction = 0.8 },
        }.Generate(10_000);

        var hot = documents.Count(d => d.PartitionKey == "pk-hot");
        Assert.InRange(hot / 10_000.0, 0.78, 0.82);
        Assert.Equal(
            Enumerable.Range(1, 9).Select(i => $"pk-{i}"),
            documents.Select(d => d.PartitionKey).Where(k => k != "pk-hot").Distinct().Order(StringComparer.Ordinal));
        Assert.All(documents, d => Assert.Equal(d.PartitionKey, d.Field("PartitionKey")));
    }

    [Fact]
    public void Strategy_DoesNotChangeTheDocuments_ForTheSameSeed()
    {
        var byGuid = new WorkloadOptions { Shape = DocumentShape.Flight, Seed = 7 }.Generate(50);
        var byHotKey = new WorkloadOptions
        {
            Shape = DocumentShape.Flight,
            Seed = 7,
            PartitionKey = new() { Strategy = PartitionKeyStrategy.HotKey },
        }.Generate(50);

        Assert.Equal(byGuid.Select(d => d.Text("Origin") + d.Text("FlightNum")), byHotKey.Select(d => d.Text("Origin") + d.Text("FlightNum")));
    }
}
