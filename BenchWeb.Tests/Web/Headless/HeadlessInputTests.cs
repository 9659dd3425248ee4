using System.Text;
using BenchEngine.Running;
using BenchEngine.Workloads;
using BenchWeb.Headless;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Web.Headless;

/// <summary>Hostile input to the headless command, run in-process: files that are not files (a named pipe, a device, a
/// folder), files too large, CSV files the dashboard would refuse, and profiles whose text would drive the terminal. Each
/// is refused at once with exit code 2 and a message saying what is wrong, never "a bug in BenchWeb", and nothing the
/// command prints carries a control character from the profile.</summary>
[IntegrationTest]
public sealed class HeadlessInputTests : IDisposable
{
    private const string NoPipes = "mkfifo makes named pipes on Linux; this platform has none to test.";

    private readonly string _directory = Directory.CreateTempSubdirectory("benchweb-headless-input-").FullName;

    public void Dispose() => Directory.Delete(_directory, recursive: true);

    [SkippableTheory]
    [InlineData("profile")]
    [InlineData("--baseline")]
    [InlineData("--sweep")]
    [InlineData("--summary")]
    public async Task Run_RefusesANamedPipe_AtOnce_WhateverArgumentNamesIt(string argument)
    {
        Skip.IfNot(OperatingSystem.IsLinux(), NoPipes);
        var pipe = NamedPipes.Make(_directory, "pipe.json");
        var profile = await WriteProfileAsync(ValidPlan);
        string[] args = argument == "profile" ? [pipe, "--summary", Result()] : [profile, argument, pipe, .. argument == "--summary" ? Array.Empty<string>() : ["--summary", Result()]];

        var (code, output) = await NamedPipes.WithinAsync(pipe, () => RunAsync(args));

        Assert.Equal(HeadlessCommand.ExitInvalidInput, code);
        Assert.Contains("not a regular file (a folder, a named pipe or a device)", output, StringComparison.Ordinal);
        Assert.DoesNotContain("bug in BenchWeb", output, StringComparison.Ordinal);
        Assert.DoesNotContain("Running against", output, StringComparison.Ordinal);
    }

    [SkippableTheory]
    [InlineData("--baseline", "/dev/zero")]
    [InlineData("--baseline", ".")]
    [InlineData("--sweep", "/dev/zero")]
    [InlineData("profile", "/dev/zero")]
    [InlineData("profile", ".")]
    public async Task Run_RefusesADeviceOrAFolder_WithoutReadingIt(string argument, string path)
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "/dev/zero is a Linux device.");
        var profile = await WriteProfileAsync(ValidPlan);
        string[] args = argument == "profile" ? [path, "--summary", Result()] : [profile, argument, path, "--summary", Result()];

        var (code, output) = await RunAsync(args);

        Assert.Equal(HeadlessCommand.ExitInvalidInput, code);
        Assert.Contains("not a regular file", output, StringComparison.Ordinal);
        Assert.DoesNotContain("bug in BenchWeb", output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Run_RefusesAProfileLargerThanItsCap_WithoutRunning()
    {
        var profile = Path.Combine(_directory, "huge.json");
        await File.WriteAllTextAsync(profile, "{ \"name\": \"" + new string('n', (int)HeadlessCommand.MaxProfileBytes) + "\" }");

        var (code, output) = await RunAsync([profile, "--summary", Result()]);

        Assert.Equal(HeadlessCommand.ExitInvalidInput, code);
        Assert.Contains("larger than 1 MB", output, StringComparison.Ordinal);
    }

    /// <summary>The file is one byte over its cap and sparse (no byte of it is on disk): refused by its length, before
    /// anything is read, so a file the size of a disk costs nothing either.</summary>
    [Theory]
    [InlineData("--baseline", HeadlessCommand.MaxBaselineBytes, "larger than 64 MB")]
    [InlineData("--sweep", HeadlessCommand.MaxProfileBytes, "larger than 1 MB")]
    public async Task Run_RefusesABaselineOrASweepLargerThanItsCap_ByItsLength(string argument, long cap, string expected)
    {
        var profile = await WriteProfileAsync(ValidPlan);
        var huge = Path.Combine(_directory, "huge.json");
        await using (var file = new FileStream(huge, FileMode.CreateNew, FileAccess.Write))
        {
            file.SetLength(cap + 1);
        }

        var (code, output) = await RunAsync([profile, argument, huge, "--summary", Result()]);

        Assert.Equal(HeadlessCommand.ExitInvalidInput, code);
        Assert.Contains($"'{huge}' cannot be read", output, StringComparison.Ordinal);
        Assert.Contains(expected, output, StringComparison.Ordinal);
        Assert.DoesNotContain("Running against", output, StringComparison.Ordinal);
        Assert.False(File.Exists(Result()), "a result was written for a run that must not start");
    }

    public static TheoryData<byte[], string> CsvFilesTheDashboardRefuses() => new()
    {
        { Encoding.UTF8.GetBytes("Origin,Dest\n"), "The file has a header row but no data rows." },
        { [.. Encoding.ASCII.GetBytes("City,Country\nZ"), 0xFC, .. Encoding.ASCII.GetBytes("rich,CH\n")], "The file is not UTF-8 text" },
        { Encoding.UTF8.GetBytes("Origin,Dest,Carrier\nSEA,LAX,AS\nATL,ORD\n"), "Line 3 of the file has 2 fields but the header row has 3" },
    };

    [Theory]
    [MemberData(nameof(CsvFilesTheDashboardRefuses))]
    public async Task Run_RefusesACsvFileAsAnUploadIsRefused_WithExitTwoBeforeRunning(byte[] content, string expected)
    {
        var csv = Path.Combine(_directory, "workload.csv");
        await File.WriteAllBytesAsync(csv, content);
        var profile = await WriteProfileAsync(new RunPlan { Name = "csv", Workload = new WorkloadOptions { Shape = DocumentShape.CsvFile, CsvPath = csv }, Stop = new StopOptions() });

        var (code, output) = await RunAsync([profile, "--summary", Result()]);

        Assert.Equal(HeadlessCommand.ExitInvalidInput, code);
        Assert.Contains($"  Workload.CsvPath: {expected}", output, StringComparison.Ordinal);
        Assert.DoesNotContain("Running against", output, StringComparison.Ordinal);
        Assert.False(File.Exists(Result()), "a result was written for a run that must not start");
    }

    [Theory]
    [InlineData("{ \"name\": \"\\u001b]0;owned\\u0007\\u001b[2Jcleared\", \"stop\": { \"totalDocuments\": 10 } }", "Name", "(U+001B)")]
    [InlineData("{ \"name\": \"ok\", \"workload\": { \"partitionKey\": { \"strategy\": \"FieldValue\", \"field\": \"\\u001b[31m\\u202Ered\\r\" } }, \"stop\": { \"totalDocuments\": 10 } }",
        "Workload.PartitionKey.Field", "no field '\\u001B[31m\\u202Ered\\u000D'")]
    public async Task Run_NeverPrintsAControlCharacterFromTheProfile(string json, string field, string expected)
    {
        var profile = Path.Combine(_directory, "hostile.json");
        await File.WriteAllTextAsync(profile, json);

        var (code, output) = await RunAsync([profile, "--summary", Result()]);

        Assert.Equal(HeadlessCommand.ExitInvalidInput, code);
        Assert.Contains($"  {field}: ", output, StringComparison.Ordinal);
        Assert.Contains(expected, output, StringComparison.Ordinal);
        Assert.DoesNotContain(output.Replace("\r\n", "\n", StringComparison.Ordinal), c => PlainText.IsRefused(c) && c != '\n');
    }

    private static readonly RunPlan ValidPlan = new() { Name = "valid", Stop = new StopOptions { TotalDocuments = 10 } };

    private string Result() => Path.Combine(_directory, "result.json");

    private async Task<string> WriteProfileAsync(RunPlan plan)
    {
        var path = Path.Combine(_directory, Guid.NewGuid().ToString("N") + ".json");
        await File.WriteAllTextAsync(path, plan.ToJson());
        return path;
    }

    private static async Task<(int Code, string Output)> RunAsync(string[] args)
    {
        using var output = new StringWriter();
        using var error = new StringWriter();
        var code = await HeadlessCommand.RunAsync(args, output, error, CancellationToken.None);
        return (code, output + error.ToString());
    }
}
