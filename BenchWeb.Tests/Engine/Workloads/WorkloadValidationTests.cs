using BenchEngine.Workloads;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Engine.Workloads;

[UnitTest]
public sealed class WorkloadValidationTests
{
    [Theory]
    [InlineData(DocumentShape.SmallDto)]
    [InlineData(DocumentShape.PerformanceData)]
    [InlineData(DocumentShape.BulkRecord)]
    [InlineData(DocumentShape.Flight)]
    public void Validate_ReturnsNothing_ForTheDefaultsOfEachBuiltInShape(DocumentShape shape)
    {
        Assert.Empty(DocumentSourceFactory.Validate(new WorkloadOptions { Shape = shape }));
    }

    [Theory]
    [InlineData(0)]
    [InlineData(-1)]
    [InlineData(2_000_001)]
    public void Validate_ReportsTargetSizeBytes_WhenOutOfRange(int target)
    {
        var error = Assert.Single(DocumentSourceFactory.Validate(new WorkloadOptions { TargetSizeBytes = target }));

        Assert.Equal("Workload.TargetSizeBytes", error.Key);
    }

    [Fact]
    public void Validate_ExplainsTheCosmosLimit_WhenTheTargetIsTooLarge()
    {
        var error = Assert.Single(DocumentSourceFactory.Validate(new WorkloadOptions { TargetSizeBytes = 3_000_000 }));

        Assert.Contains("Cosmos DB items are at most 2 MB", error.Value, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2_000_000)]
    public void Validate_AcceptsTargetSizeBytes_WithinTheLimit(int target)
    {
        Assert.Empty(DocumentSourceFactory.Validate(new WorkloadOptions { TargetSizeBytes = target }));
    }

    [Theory]
    [InlineData(null)]
    [InlineData("")]
    public void Validate_ReportsTheField_WhenFieldValueHasNone(string? field)
    {
        var error = Assert.Single(Validate(new() { Strategy = PartitionKeyStrategy.FieldValue, Field = field }));

        Assert.Equal("Workload.PartitionKey.Field", error.Key);
    }

    [Fact]
    public void Validate_ReportsTheField_WhenTheShapeDoesNotHaveIt()
    {
        var error = Assert.Single(Validate(new() { Strategy = PartitionKeyStrategy.FieldValue, Field = "Tail" }, DocumentShape.Flight));

        Assert.Equal("Workload.PartitionKey.Field", error.Key);
        Assert.StartsWith("The Flight documents have no field 'Tail' (they have Year, Quarter,", error.Value, StringComparison.Ordinal);
    }

    [Fact]
    public void Validate_ReportsTheSmallDtoPartitionKeyField_AsItsOwnSource()
    {
        var error = Assert.Single(Validate(new() { Strategy = PartitionKeyStrategy.FieldValue, Field = "PartitionKey" }));

        Assert.Equal("Workload.PartitionKey.Field", error.Key);
    }

    [Fact]
    public void Validate_ReportsKeyCount_WhenFixedKeysHasNone()
    {
        var error = Assert.Single(Validate(new() { Strategy = PartitionKeyStrategy.FixedKeys, KeyCount = 0 }));

        Assert.Equal("Workload.PartitionKey.KeyCount", error.Key);
    }

    [Fact]
    public void Validate_ReportsKeyCount_WhenHotKeyHasFewerThanTwo()
    {
        var error = Assert.Single(Validate(new() { Strategy = PartitionKeyStrategy.HotKey, KeyCount = 1 }));

        Assert.Equal("Workload.PartitionKey.KeyCount", error.Key);
    }

    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(1.5)]
    [InlineData(-0.2)]
    [InlineData(double.NaN)]
    public void Validate_ReportsHotKeyFraction_WhenNotStrictlyBetween0And1(double fraction)
    {
        var error = Assert.Single(Validate(new() { Strategy = PartitionKeyStrategy.HotKey, HotKeyFraction = fraction }));

        Assert.Equal("Workload.PartitionKey.HotKeyFraction", error.Key);
    }

    [Fact]
    public void Validate_ReportsEveryProblem_AtOnce()
    {
        var errors = DocumentSourceFactory.Validate(new WorkloadOptions
        {
            Shape = DocumentShape.CsvFile,
            TargetSizeBytes = 0,
            PartitionKey = new() { Strategy = PartitionKeyStrategy.HotKey, KeyCount = 1, HotKeyFraction = 2 },
        });

        Assert.Equal(
            ["Workload.TargetSizeBytes", "Workload.CsvPath", "Workload.PartitionKey.KeyCount", "Workload.PartitionKey.HotKeyFraction"],
            errors.Select(e => e.Key));
    }

    [Fact]
    public void Validate_ReportsAnUnknownShape()
    {
        var error = Assert.Single(DocumentSourceFactory.Validate(new WorkloadOptions { Shape = (DocumentShape)99 }));

        Assert.Equal("Workload.Shape", error.Key);
    }

    private static IReadOnlyList<KeyValuePair<string, string>> Validate(PartitionKeyOptions partitionKey, DocumentShape shape = DocumentShape.SmallDto) =>
        DocumentSourceFactory.Validate(new WorkloadOptions { Shape = shape, PartitionKey = partitionKey });
}
