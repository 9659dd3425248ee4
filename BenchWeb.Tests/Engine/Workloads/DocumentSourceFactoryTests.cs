using BenchEngine.Workloads;
using Microsoft.Extensions.Time.Testing;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Engine.Workloads;

[UnitTest]
public sealed class DocumentSourceFactoryTests
{
    [Fact]
    public void Create_Throws_WhenTheOptionsAreInvalid()
    {
        var options = new WorkloadOptions { Shape = DocumentShape.CsvFile, CsvPath = "/no/such/file.csv" };

        var exception = Assert.Throws<ArgumentException>(() => DocumentSourceFactory.Create(options, TimeProvider.System));

        Assert.Contains("Workload.CsvPath: The file cannot be used.", exception.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Documents_HaveUniqueGuidIds()
    {
        var documents = new WorkloadOptions { Shape = DocumentShape.BulkRecord }.Generate(5_000);

        Assert.All(documents, d => Assert.True(Guid.TryParse(d.Id, out _)));
        Assert.Equal(documents.Count, documents.Select(d => d.Id).Distinct().Count());
    }

    [Theory]
    [InlineData(DocumentShape.SmallDto)]
    [InlineData(DocumentShape.PerformanceData)]
    [InlineData(DocumentShape.BulkRecord)]
    [InlineData(DocumentShape.Flight)]
    public void Documents_RepeatForTheSameSeed_AndDifferForAnother(DocumentShape shape)
    {
        static string[] Values(WorkloadOptions options) =>
            [.. options.Generate(50).Select(d => string.Join("|", d.Fields.Where(f => f.Key != "PartitionKey").Select(f => f.Value)))];

        var options = new WorkloadOptions { Shape = shape, Seed = 3 };

        Assert.Equal(Values(options), Values(options));
        Assert.NotEqual(Values(options), Values(options with { Seed = 4 }));
    }

    [Theory]
    [InlineData(DocumentShape.PerformanceData, "SampledAt")]
    [InlineData(DocumentShape.BulkRecord, "CreatedAt")]
    public void TimeFields_ComeFromTheTimeProvider(DocumentShape shape, string field)
    {
        var documents = new WorkloadOptions { Shape = shape }.Generate(20, new FakeTimeProvider(WorkloadTestExtensions.FixedNow));

        Assert.All(documents, d => Assert.Equal(WorkloadTestExtensions.FixedNow, d.Field(field)));
    }

    [Fact]
    public void SmallDto_HasTheSeedFields()
    {
        var document = new WorkloadOptions { Shape = DocumentShape.SmallDto }.Generate(1)[0];

        Assert.Equal(["KeyNumber", "SomeText", "SomeCount", "PartitionKey"], document.Fields.Select(f => f.Key));
        Assert.IsType<int>(document.Field("KeyNumber"));
        Assert.IsType<string>(document.Field("SomeText"));
        Assert.IsType<int>(document.Field("SomeCount"));
    }

    [Fact]
    public void BulkRecord_HasTenFields()
    {
        var document = new WorkloadOptions { Shape = DocumentShape.BulkRecord }.Generate(1)[0];

        Assert.Equal(10, document.Fields.Count);
    }

    [Theory]
    [InlineData(DocumentShape.SmallDto, null, "Small DTO (4 fields, ~150 B); partition key: a new GUID per document")]
    [InlineData(DocumentShape.BulkRecord, null, "Bulk record (10 fields, ~320 B); partition key: the sequence number")]
    [InlineData(DocumentShape.Flight, 1_725, "Flight record (50 columns, ~1,056 B); partition key: field 'Origin'; padded to ~1,725 B")]
    public void Describe_SaysShapeKeyAndPadding(DocumentShape shape, int? target, string expected)
    {
        Assert.Equal(expected, DocumentSourceFactory.Describe(new WorkloadOptions { Shape = shape, TargetSizeBytes = target }));
    }

    [Fact]
    public void Describe_NamesTheKeyStrategy_WhenOneIsChosen()
    {
        var options = new WorkloadOptions
        {
            Shape = DocumentShape.PerformanceData,
            PartitionKey = new() { Strategy = PartitionKeyStrategy.HotKey, KeyCount = 10, HotKeyFraction = 0.8 },
        };

        Assert.Equal(
            "Performance data (6 fields, ~200 B); partition key: hot key for 80 % of documents, the rest over 9 keys",
            DocumentSourceFactory.Describe(options));
    }

    [Fact]
    public void Describe_DoesNotOpenTheCsvFile()
    {
        var description = DocumentSourceFactory.Describe(new WorkloadOptions { Shape = DocumentShape.CsvFile, CsvPath = "/no/such/ontime.csv" });

        Assert.Equal("CSV file 'ontime.csv'; partition key: field 'Origin' if the file has it, else a new GUID per document", description);
    }

    [Fact]
    public void Source_Description_MatchesDescribe_ForBuiltInShapes()
    {
        var options = new WorkloadOptions { Shape = DocumentShape.Flight, PartitionKey = new() { Strategy = PartitionKeyStrategy.FixedKeys } };
        using var source = DocumentSourceFactory.Create(options, TimeProvider.System);

        Assert.Equal(DocumentSourceFactory.Describe(options), source.Description);
    }

    [Theory]
    [InlineData(DocumentShape.SmallDto, PartitionKeyStrategy.Guid)]
    [InlineData(DocumentShape.PerformanceData, PartitionKeyStrategy.Guid)]
    [InlineData(DocumentShape.BulkRecord, PartitionKeyStrategy.Sequence)]
    [InlineData(DocumentShape.Flight, PartitionKeyStrategy.FieldValue)]
    [InlineData(DocumentShape.JsonTemplate, PartitionKeyStrategy.Guid)]
    [InlineData(DocumentShape.CsvFile, PartitionKeyStrategy.FieldValue)]
    public void DefaultPartitionKeyStrategy_IsTheSeedExperimentsKey(DocumentShape shape, PartitionKeyStrategy expected)
    {
        Assert.Equal(expected, DocumentSourceFactory.DefaultPartitionKeyStrategy(shape));
    }
}
