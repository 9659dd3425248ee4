using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Engine.Workloads;

/// <summary>A CSV path is user input naming a file on the machine that runs BenchWeb: whatever it names, checking it
/// neither hangs nor fills memory, and no message says what the file holds.</summary>
[UnitTest]
public sealed class CsvFileSafetyTests : IDisposable
{
    private const string Marker = "SECRET7f3a";

    private readonly string _folder = Directory.CreateTempSubdirectory("benchweb-csv-safety-").FullName;

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    [Fact]
    public async Task Validate_RefusesANamedPipe_WithoutWaitingForAWriter()
    {
        var pipe = NamedPipes.Make(_folder, "pipe.csv");

        var error = await NamedPipes.WithinAsync(pipe, () => Assert.Single(DocumentSourceFactory.Validate(Options(pipe), ValidationAudience.Local)));

        Assert.Equal("Workload.CsvPath", error.Key);
        Assert.Contains("not a regular file", error.Value, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("/dev/null")]
    [InlineData(".")]
    public void Validate_RefusesADeviceOrADirectory(string path)
    {
        var error = Assert.Single(DocumentSourceFactory.Validate(Options(path), ValidationAudience.Local));

        Assert.Equal("Workload.CsvPath", error.Key);
        Assert.Contains("not a regular file", error.Value, StringComparison.Ordinal);
    }

    [Fact]
    public void Validate_StopsReadingTheHeaderAt64KB_WhenTheFileHasNoNewline()
    {
        var path = Write("one-line.csv", Marker + new string('a', 1_000_000));

        var error = Assert.Single(DocumentSourceFactory.Validate(Options(path), ValidationAudience.Local));

        Assert.Equal("Workload.CsvPath", error.Key);
        Assert.Contains("64 KB", error.Value, StringComparison.Ordinal);
        Assert.DoesNotContain(Marker, error.Value, StringComparison.Ordinal);
    }

    public static TheoryData<string, string?, ValidationAudience> FilesWithContent()
    {
        var data = new TheoryData<string, string?, ValidationAudience>();
        foreach (var audience in new[] { ValidationAudience.Local, ValidationAudience.Remote })
        {
            data.Add($"{Marker},b,{Marker}\n1,2,3\n", null, audience);
            data.Add($"{Marker},Origin\n1,2\n", "Tail", audience);
            data.Add($"\"{Marker}\n", null, audience);
            data.Add(Marker + new string('x', 70_000) + "\n1\n", null, audience);
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(FilesWithContent))]
    public void Validate_NeverQuotesTheFile_WhateverIsWrongWithIt(string content, string? partitionKeyField, ValidationAudience audience)
    {
        var options = Options(Write("data.csv", content)) with
        {
            PartitionKey = partitionKeyField is null ? null : new() { Strategy = PartitionKeyStrategy.FieldValue, Field = partitionKeyField },
        };

        var errors = DocumentSourceFactory.Validate(options, audience);

        Assert.NotEmpty(errors);
        Assert.All(errors, e => Assert.DoesNotContain(Marker, e.Value, StringComparison.Ordinal));
    }

    [Fact]
    public async Task Validate_SaysOnlyCannotBeUsed_ToARemoteUser_WhateverIsWrongWithTheFile()
    {
        var pipe = NamedPipes.Make(_folder, "pipe.csv");
        string[] paths =
        [
            Path.Combine(_folder, "missing.csv"),
            _folder,
            "/dev/null",
            Write("empty.csv", ""),
            Write("repeated.csv", "a,a\n1,2\n"),
            Write("long.csv", new string('a', 100_000)),
            pipe,
        ];

        var messages = await NamedPipes.WithinAsync(pipe, () => paths.Select(p => Assert.Single(DocumentSourceFactory.Validate(Options(p)))).ToList());

        Assert.All(messages, m => Assert.Equal(new KeyValuePair<string, string>("Workload.CsvPath", "The file cannot be used."), m));
    }

    [Fact]
    public void Validate_SaysWhatIsWrong_ToTheLocalUser()
    {
        var missing = Path.Combine(_folder, "missing.csv");

        Assert.Equal($"File '{missing}' does not exist.", Assert.Single(DocumentSourceFactory.Validate(Options(missing), ValidationAudience.Local)).Value);
        Assert.Contains("is empty", Assert.Single(DocumentSourceFactory.Validate(Options(Write("empty.csv", "")), ValidationAudience.Local)).Value, StringComparison.Ordinal);
        Assert.Contains("columns 1 and 3", Assert.Single(DocumentSourceFactory.Validate(Options(Write("r.csv", "a,b,a\n")), ValidationAudience.Local)).Value, StringComparison.Ordinal);
    }

    [Fact]
    public async Task RunAsync_FailsWithoutQuotingTheRow_WhenARowIsLongerThanAnyItem()
    {
        var path = Write("long-row.csv", $"a,b\n1,2\n{Marker}{new string('x', 3_000_000)},2\n3,4\n");
        var plan = new RunPlan { Name = "csv", Target = new TargetOptions { Kind = TargetKind.NoOp }, Workload = Options(path), Load = new LoadOptions { Concurrency = 1 } };

        var result = await new BenchmarkRunner().RunAsync(plan, new TargetContext(TimeProvider.System, _ => null));

        Assert.Equal(RunStatus.Failed, result.Status);
        Assert.Contains("Line 3 of the CSV file is longer than", result.FailureReason, StringComparison.Ordinal);
        Assert.DoesNotContain(Marker, result.FailureReason, StringComparison.Ordinal);
        Assert.Equal(1, result.Summary.TotalOk);
    }

    [Fact]
    public async Task RunAsync_FailsWithoutQuotingTheRow_WhenARowIsMalformed()
    {
        var path = Write("bad-row.csv", $"a,b\n1,2\n3,x\"{Marker}\"y\n");
        var plan = new RunPlan { Name = "csv", Target = new TargetOptions { Kind = TargetKind.NoOp }, Workload = Options(path), Load = new LoadOptions { Concurrency = 1 } };

        var result = await new BenchmarkRunner().RunAsync(plan, new TargetContext(TimeProvider.System, _ => null));

        Assert.Equal(RunStatus.Failed, result.Status);
        Assert.DoesNotContain(Marker, result.FailureReason, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Run_FailsNamingTheLine_WhenARowHasAFieldMissing()
    {
        // Only the header is read before a run; a short row would have made documents with an empty value, unnoticed.
        var path = Write("short-row.csv", $"a,b,c\n1,2,3\n{Marker},5\n");
        var plan = new RunPlan { Name = "csv", Target = new TargetOptions { Kind = TargetKind.NoOp }, Workload = Options(path), Load = new LoadOptions { Concurrency = 1 } };

        var result = await new BenchmarkRunner().RunAsync(plan, new TargetContext(TimeProvider.System, _ => null));

        Assert.Equal(RunStatus.Failed, result.Status);
        Assert.Contains("Line 3 of the CSV file has 2 fields but its header row has 3.", result.FailureReason, StringComparison.Ordinal);
        Assert.DoesNotContain(Marker, result.FailureReason, StringComparison.Ordinal);
    }

    private static WorkloadOptions Options(string path) => new() { Shape = DocumentShape.CsvFile, CsvPath = path };

    private string Write(string name, string content)
    {
        var path = Path.Combine(_folder, name);
        File.WriteAllText(path, content);
        return path;
    }
}
