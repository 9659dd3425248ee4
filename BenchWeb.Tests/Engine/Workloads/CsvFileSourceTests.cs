using BenchEngine.Workloads;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Engine.Workloads;

[Collection(BenchWeb.Tests.Support.MemoryMeasurementCollection.Name)]
[UnitTest]
public sealed class CsvFileSourceTests : IDisposable
{
    // The shape of a BTS file: quoted text, a city with a comma, a cancelled flight with empty times,
    // and a comma ending every line (an extra, nameless column).
    private const string FlightsCsv = """
        "Year","FlightDate","Carrier","Origin","OriginCityName","Dest","DestCityName","DepTime","Cancelled","CancellationCode",
        2015,2015-01-01,"AA","DFW","Dallas/Fort Worth, TX","MEM","Memphis, TN","1342",0.00,"",
        2015,2015-01-02,"UA","ORD","Chicago, IL","LGA","New York, NY","",1.00,"B",
        2015,2015-01-03,"DL","ATL","Atlanta, GA","SEA","Seattle, WA","0605",0.00,"",
        """;

    private readonly string _folder = Directory.CreateTempSubdirectory("benchweb-csv-").FullName;

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    [Fact]
    public void Fields_AreTheNamedColumns_WithoutTheTrailingEmptyOne()
    {
        var documents = Import(FlightsCsv);

        Assert.All(documents, d => Assert.Equal(
            ["Year", "FlightDate", "Carrier", "Origin", "OriginCityName", "Dest", "DestCityName", "DepTime", "Cancelled", "CancellationCode"],
            d.Fields.Select(f => f.Key)));
        Assert.All(documents, d => Assert.All(d.Fields, f => Assert.IsType<string>(f.Value)));
    }

    [Fact]
    public void QuotedCommas_StayInOneField()
    {
        var first = Import(FlightsCsv)[0];

        Assert.Equal("Dallas/Fort Worth, TX", first.Text("OriginCityName"));
        Assert.Equal("Memphis, TN", first.Text("DestCityName"));
        Assert.Equal("2015", first.Text("Year"));
        Assert.Equal("1342", first.Text("DepTime"));
    }

    [Fact]
    public void EmptyFields_StayEmptyStrings_ForACancelledFlight()
    {
        var cancelled = Import(FlightsCsv)[1];

        Assert.Equal(string.Empty, cancelled.Text("DepTime"));
        Assert.Equal("1.00", cancelled.Text("Cancelled"));
        Assert.Equal("B", cancelled.Text("CancellationCode"));
    }

    [Fact]
    public void ARowWithFieldsMissing_IsRefusedNamingItsLine_NotFilledWithEmptyStrings()
    {
        using var source = DocumentSourceFactory.Create(Options(Write(FlightsCsv + "\n2015,2015-01-04,\"DL\",\"ATL\",\"Atlanta, GA\"\n")), TimeProvider.System);

        Assert.Equal(3, source.Take(3).Count);
        var error = Assert.Throws<InvalidDataException>(() => source.TryNext(out _));
        Assert.Equal("Line 5 of the CSV file has 5 fields but its header row has 11.", error.Message);
    }

    [Fact]
    public void TryNext_ReturnsFalse_AtTheEndOfTheFile()
    {
        using var source = DocumentSourceFactory.Create(Options(Write(FlightsCsv)), TimeProvider.System);

        Assert.Equal(3, source.Take(10).Count);
        Assert.False(source.TryNext(out _));
    }

    [Fact]
    public void PartitionKey_IsOrigin_WhenTheFileHasThatColumn()
    {
        Assert.Equal(["DFW", "ORD", "ATL"], Import(FlightsCsv).Select(d => d.PartitionKey));
    }

    [Fact]
    public void PartitionKey_IsAGuid_WhenTheFileHasNoOrigin()
    {
        var documents = Import("name,size\na,1\nb,2\n");

        Assert.All(documents, d => Assert.True(Guid.TryParse(d.PartitionKey, out _)));
    }

    [Fact]
    public void PartitionKey_FollowsTheOptions_WhenGiven()
    {
        var options = Options(Write(FlightsCsv)) with
        {
            PartitionKey = new() { Strategy = PartitionKeyStrategy.FieldValue, Field = "Carrier" },
        };

        Assert.Equal(["AA", "UA", "DL"], options.Generate(10).Select(d => d.PartitionKey));
    }

    [Fact]
    public void Values_KeepEscapedQuotesAndLineBreaks()
    {
        var document = Assert.Single(Import("note,n\n\"He said \"\"hi\"\"\nthen left\",1\n"));

        Assert.Equal("He said \"hi\"\nthen left", document.Text("note"));
    }

    [Fact]
    public void IdColumn_IsSkipped_BecauseTheEngineSetsIds()
    {
        var document = Assert.Single(Import("id,name\nfrom-file,a\n"));

        Assert.Equal(["name"], document.Fields.Select(f => f.Key));
        Assert.NotEqual("from-file", document.Id);
    }

    [Fact]
    public void Padding_BringsRowsToTheTarget()
    {
        var documents = (Options(Write(FlightsCsv)) with { TargetSizeBytes = 1_000 }).Generate(10);

        Assert.All(documents, d => Assert.InRange(DocumentJson.Measure(d), 996, 1_004));
    }

    [Fact]
    public void Description_NamesTheFileAndItsColumns()
    {
        using var source = DocumentSourceFactory.Create(Options(Write(FlightsCsv, "ontime.csv")), TimeProvider.System);

        Assert.StartsWith("CSV file 'ontime.csv' (10 columns); partition key: field 'Origin'", source.Description, StringComparison.Ordinal);
    }

    [Fact]
    public void Dispose_ClosesTheFile()
    {
        var path = Write(FlightsCsv);
        var source = DocumentSourceFactory.Create(Options(path), TimeProvider.System);
        source.Take(1);

        Assert.ThrowsAny<IOException>(() => new FileStream(path, FileMode.Open, FileAccess.ReadWrite, FileShare.None).Dispose());
        source.Dispose();
        new FileStream(path, FileMode.Open, FileAccess.ReadWrite, FileShare.None).Dispose();
    }

    [Fact]
    [Slow]
    public void Source_StreamsALargeFile_WithoutHoldingItsRows()
    {
        var path = Path.Combine(_folder, "large.csv");
        using (var writer = new StreamWriter(path))
        {
            writer.WriteLine("Origin,OriginCityName,Filler,");
            for (var i = 0; i < 200_000; i++)
            {
                writer.WriteLine($"DFW,\"Dallas/Fort Worth, TX\",{new string('x', 200)},");
            }
        }

        using var source = DocumentSourceFactory.Create(Options(path), TimeProvider.System);
        source.Take(1_000);
        var before = GC.GetTotalMemory(forceFullCollection: true);
        var count = 1_000;
        while (source.TryNext(out _))
        {
            count++;
        }

        Assert.Equal(200_000, count);
        Assert.InRange(GC.GetTotalMemory(forceFullCollection: true) - before, long.MinValue, 4_000_000);
    }

    [Fact]
    public void Validate_ReportsAMissingPath()
    {
        var error = Assert.Single(DocumentSourceFactory.Validate(new WorkloadOptions { Shape = DocumentShape.CsvFile }));

        Assert.Equal("Workload.CsvPath", error.Key);
        Assert.Contains("required", error.Value, StringComparison.Ordinal);
    }

    [Fact]
    public void Validate_ReportsAFileThatDoesNotExist()
    {
        var path = Path.Combine(_folder, "x.csv");

        var error = Assert.Single(DocumentSourceFactory.Validate(Options(path), BenchEngine.Running.ValidationAudience.Local));

        Assert.Equal(new KeyValuePair<string, string>("Workload.CsvPath", $"File '{path}' does not exist."), error);
    }

    [Theory]
    [InlineData("", "empty")]
    [InlineData("a,b,a\n1,2,3\n", "a column name appears more than once in the header (columns 1 and 3)")]
    public void Validate_ReportsAnUnusableHeader(string content, string expected)
    {
        var error = Assert.Single(DocumentSourceFactory.Validate(Options(Write(content)), BenchEngine.Running.ValidationAudience.Local));

        Assert.Equal("Workload.CsvPath", error.Key);
        Assert.Contains(expected, error.Value, StringComparison.Ordinal);
    }

    [Fact]
    public void Validate_ReportsAPartitionKeyFieldThatIsNotAColumn()
    {
        var options = Options(Write(FlightsCsv)) with
        {
            PartitionKey = new() { Strategy = PartitionKeyStrategy.FieldValue, Field = "Tail" },
        };

        var error = Assert.Single(DocumentSourceFactory.Validate(options));

        Assert.Equal("Workload.PartitionKey.Field", error.Key);
        Assert.Contains("no field 'Tail'", error.Value, StringComparison.Ordinal);
    }

    private static WorkloadOptions Options(string path) => new() { Shape = DocumentShape.CsvFile, CsvPath = path };

    private List<Document> Import(string content) => Options(Write(content)).Generate(100);

    private string Write(string content, string name = "flights.csv")
    {
        var path = Path.Combine(_folder, name);
        File.WriteAllText(path, content);
        return path;
    }
}
