using BenchEngine.Running;
using BenchEngine.Workloads;
using BenchWeb.Tests.Support;
using BenchWeb.Uploads;

namespace BenchWeb.Tests.Web.Uploads;

[UnitTest]
public sealed class WebPlanRulesTests : IDisposable
{
    private readonly string _directory = Directory.CreateTempSubdirectory("benchweb-webplan-").FullName;

    private static readonly Func<long, string?> NoFiles = _ => null;

    [Fact]
    public void Validate_ServerPath_IsOneErrorAtCsvPathThatIsTheSameWhetherOrNotTheFileExists()
    {
        var (existing, missing) = CsvUploads.ServerPaths(_directory);
        string[] paths = [existing, missing, "/etc/passwd", "relative/path.csv"];

        var results = paths.Select(path => WebPlanRules.Validate(CsvPlan(path: path), NoFiles)).ToList();

        foreach (var errors in results)
        {
            var error = Assert.Single(errors);
            Assert.Equal(new FieldError(WebPlanRules.CsvPathField, WebPlanRules.ServerPathMessage), error);
        }

        var text = string.Join("\n", results.SelectMany(e => e));
        Assert.DoesNotContain("TOP-SECRET", text, StringComparison.Ordinal);
        Assert.DoesNotContain(_directory, text, StringComparison.Ordinal);
        Assert.DoesNotContain("passwd", text, StringComparison.Ordinal);
    }

    [Fact]
    public void Validate_ServerPathOnAnotherShape_IsStillAnError()
    {
        var plan = new RunPlan { Workload = new WorkloadOptions { Shape = DocumentShape.SmallDto, CsvPath = "/etc/passwd" } };

        Assert.Equal([new FieldError(WebPlanRules.CsvPathField, WebPlanRules.ServerPathMessage)], WebPlanRules.Validate(plan, NoFiles));
    }

    [Fact]
    public void Validate_UnknownFileId_IsAnErrorAtCsvFileId()
    {
        var error = Assert.Single(WebPlanRules.Validate(CsvPlan(fileId: 7), NoFiles));

        Assert.Equal(new FieldError(WebPlanRules.CsvFileIdField, "No uploaded file 7."), error);
    }

    [Fact]
    public void Validate_CsvShapeWithoutAFile_AsksForAnUploadedOne()
    {
        var error = Assert.Single(WebPlanRules.Validate(CsvPlan(), NoFiles));

        Assert.Equal(new FieldError(WebPlanRules.CsvFileIdField, WebPlanRules.ChooseFileMessage), error);
    }

    [Fact]
    public void Validate_KnownFileId_PassesTheEngineRulesOnTheStoredFile()
    {
        var stored = Stored(CsvUploads.Flights(3));

        Assert.Empty(WebPlanRules.Validate(CsvPlan(fileId: 4), id => id == 4 ? stored : null));
    }

    [Fact]
    public void Validate_MissingKeyColumn_NamesNoColumnOfTheFile()
    {
        var stored = Stored(CsvUploads.Flights(3));
        var plan = CsvPlan(fileId: 4) with
        {
            Workload = CsvPlan(fileId: 4).Workload with { PartitionKey = new PartitionKeyOptions { Strategy = PartitionKeyStrategy.FieldValue, Field = "Tail" } },
        };

        var error = Assert.Single(WebPlanRules.Validate(plan, id => id == 4 ? stored : null));

        Assert.Equal(new FieldError("Workload.PartitionKey.Field", "The uploaded file has no column named 'Tail'."), error);
        Assert.DoesNotContain("Origin", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Sanitize_EngineErrorNamingTheStoredPath_BecomesOneAboutTheFileNumber()
    {
        var stored = Path.Combine(_directory, "0123456789abcdef.csv");
        var engineErrors = CsvPlan(path: stored).Validate();

        var errors = WebPlanRules.Sanitize(CsvPlan(fileId: 9), engineErrors);

        var error = Assert.Single(errors);
        Assert.Equal(WebPlanRules.CsvFileIdField, error.Field);
        Assert.Equal("Uploaded file 9 cannot be read as a CSV file with a header row.", error.Message);
    }

    [Fact]
    public void Resolve_PutsTheStoredPathInAndDropsAPathTheCallerNamed()
    {
        var plan = CsvPlan(fileId: 4, path: "/etc/passwd");

        Assert.Equal("/stored/4.csv", WebPlanRules.Resolve(plan, id => id == 4 ? "/stored/4.csv" : null).Workload.CsvPath);
        Assert.Null(WebPlanRules.Resolve(CsvPlan(path: "/etc/passwd"), NoFiles).Workload.CsvPath);
        Assert.Equal(4, WebPlanRules.Resolve(plan, NoFiles).Workload.CsvFileId);
    }

    private static RunPlan CsvPlan(long? fileId = null, string? path = null) => new()
    {
        Name = "csv",
        Workload = new WorkloadOptions { Shape = DocumentShape.CsvFile, CsvFileId = fileId, CsvPath = path },
        Stop = new StopOptions { TotalDocuments = 10 },
    };

    private string Stored(string content)
    {
        var path = Path.Combine(_directory, Guid.NewGuid().ToString("N") + ".csv");
        File.WriteAllText(path, content);
        return path;
    }

    public void Dispose() => Directory.Delete(_directory, recursive: true);
}
