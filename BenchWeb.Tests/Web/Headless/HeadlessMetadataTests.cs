using System.Text.Json.Nodes;
using BenchEngine.Running;
using BenchWeb.Headless;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Web.Headless;

/// <summary>The headless command's <c>--meta key=value</c> pairs and the pipeline variables it reads, from an environment given
/// as a dictionary (the test process's own is neither read nor changed).</summary>
[IntegrationTest]
public sealed class HeadlessMetadataTests : IDisposable
{
    private static readonly Dictionary<string, string> GitHubJob = new(StringComparer.Ordinal)
    {
        ["GITHUB_SHA"] = "0123456789abcdef0123456789abcdef01234567",
        ["GITHUB_REF_NAME"] = "main",
        ["GITHUB_RUN_ID"] = "9876543210",
        ["GITHUB_REPOSITORY"] = "octo-org/bench-app",
        ["GITHUB_TOKEN"] = "ghs_secretTokenValue",
        ["COSMOS_KEY"] = "c2VjcmV0LWNvc21vcy1rZXk=",
    };

    private readonly string _directory = Directory.CreateTempSubdirectory("benchweb-headless-meta-").FullName;

    [Fact]
    public async Task Run_InAGitHubJobWithMetaPairs_WritesThePipelinesPairsAndTheGivenOnes_TheGivenWinning()
    {
        var (code, output, error, result) = await RunAsync(GitHubJob, "--meta", "branch=release/1.2", "--meta", " ticket = BW-24 ");

        Assert.True(code == HeadlessCommand.ExitCompleted, $"exit {code}: {output}{error}");
        var metadata = result!["metadata"]!.AsObject();
        Assert.Equal(
            [
                ("ci", "github-actions"), ("commit", "0123456789abcdef0123456789abcdef01234567"), ("branch", "release/1.2"), ("build", "9876543210"),
                ("repository", "octo-org/bench-app"), ("pipeline", "https://github.com/octo-org/bench-app/actions/runs/9876543210"), ("ticket", "BW-24"),
            ],
            metadata.Select(p => (p.Key, p.Value!.GetValue<string>())));
        Assert.Contains("Metadata: ci=github-actions · commit=0123456789abcdef0123456789abcdef01234567 · branch=release/1.2 · ", output, StringComparison.Ordinal);
        var file = result.ToJsonString();
        Assert.DoesNotContain("ghs_secretTokenValue", file, StringComparison.Ordinal);
        Assert.DoesNotContain("c2VjcmV0LWNvc21vcy1rZXk=", file, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Run_OutsideAPipelineWithoutMeta_WritesAnEmptyMetadataObject()
    {
        var (code, output, _, result) = await RunAsync(new Dictionary<string, string>());

        Assert.Equal(HeadlessCommand.ExitCompleted, code);
        Assert.Empty(result!["metadata"]!.AsObject());
        Assert.DoesNotContain("Metadata:", output, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("--meta needs a key=value after it", "--meta")]
    [InlineData("--meta 'commit': Write key=value", "--meta", "commit")]
    [InlineData("--meta '=1a2b': The key before '=' is empty", "--meta", "=1a2b")]
    [InlineData("--meta.commit: Given more than once: each key once.", "--meta", "commit=1", "--meta", "commit=2")]
    [InlineData("--meta.commit: At most 200 characters; this value has 201.", "--meta", "commit=LONG")]
    [InlineData("--meta.branch: Contains a bidirectional-text control (U+202E)", "--meta", "branch=main\u202Egnp.exe")]
    [InlineData("--meta: The key of pair 1: Contains a control character (U+0007)", "--meta", "bell\u0007=1")]
    [InlineData("--meta: The key of pair 1 has 51 characters; at most 50.", "--meta", "KEY51=1")]
    public async Task Run_BadMeta_ExitsTwoNamingTheProblem_AndRunsNothing(string expected, params string[] meta)
    {
        meta = [.. meta.Select(a => a.Replace("LONG", new string('x', 201), StringComparison.Ordinal).Replace("KEY51", new string('k', 51), StringComparison.Ordinal))];

        var (code, output, error, result) = await RunAsync(GitHubJob, meta);

        Assert.Equal(HeadlessCommand.ExitInvalidInput, code);
        Assert.Contains(expected, error, StringComparison.Ordinal);
        Assert.DoesNotContain("Running against", output, StringComparison.Ordinal);
        Assert.Null(result);
    }

    [Fact]
    public async Task Run_GivenPairsThatWithThePipelinesAreTooMany_ExitsTwoSayingHowManyWereRead()
    {
        var meta = Enumerable.Range(1, 15).SelectMany(i => new[] { "--meta", $"key{i}=value" }).ToArray();

        var (code, _, error, result) = await RunAsync(GitHubJob, meta);

        Assert.Equal(HeadlessCommand.ExitInvalidInput, code);
        Assert.Contains("--meta: At most 20 pairs; this has 21. (6 of them read from the pipeline's variables)", error, StringComparison.Ordinal);
        Assert.Null(result);
        Assert.Equal(HeadlessCommand.ExitCompleted, (await RunAsync(new Dictionary<string, string>(), meta)).Code);
    }

    [Fact]
    public async Task Run_APipelineVariableOutOfBounds_IsSkippedWithANote_AndTheRunGoesOn()
    {
        var job = new Dictionary<string, string>(GitHubJob) { ["GITHUB_REF_NAME"] = new string('b', 201) };

        var (code, _, error, result) = await RunAsync(job);

        Assert.Equal(HeadlessCommand.ExitCompleted, code);
        Assert.Contains("Not kept from the pipeline's variables: GITHUB_REF_NAME: At most 200 characters", error, StringComparison.Ordinal);
        Assert.False(result!["metadata"]!.AsObject().ContainsKey("branch"));
        Assert.Equal("main", (await RunAsync(new Dictionary<string, string>(job), "--meta", "branch=main")).Result!["metadata"]!["branch"]!.GetValue<string>());
    }

    [Fact]
    public async Task RunSweep_InAPipeline_EveryStepsExportCarriesTheMetadata()
    {
        var profile = Path.Combine(_directory, "sweep-plan.json");
        await File.WriteAllTextAsync(profile, new RunPlan { Name = "sweep with metadata", Stop = new StopOptions { DurationSeconds = 1 } }.ToJson());
        var sweep = Path.Combine(_directory, "sweep.json");
        await File.WriteAllTextAsync(sweep, """{ "setting": "Load.Concurrency", "values": ["1", "2"] }""");
        var summary = Path.Combine(_directory, "sweep.result.json");
        using var output = new StringWriter();

        var code = await HeadlessCommand.RunAsync([profile, "--sweep", sweep, "--summary", summary, "--meta", "ticket=BW-24"], output, TextWriter.Null,
            configuration: null, createRunner: null, environment: GitHubJob.GetValueOrDefault, CancellationToken.None);

        Assert.True(code == HeadlessCommand.ExitCompleted, $"exit {code}: {output}");
        var runs = JsonNode.Parse(await File.ReadAllTextAsync(summary))!["runs"]!.AsArray();
        Assert.NotEmpty(runs);
        Assert.All(runs, run =>
        {
            Assert.Equal("0123456789abcdef0123456789abcdef01234567", run!["metadata"]!["commit"]!.GetValue<string>());
            Assert.Equal("BW-24", run["metadata"]!["ticket"]!.GetValue<string>());
        });
    }

    public void Dispose() => Directory.Delete(_directory, recursive: true);

    /// <summary>A one-second simulated run with these arguments after the profile and the result file, in this environment;
    /// the result file as JSON when one was written.</summary>
    private async Task<(int Code, string Output, string Error, JsonNode? Result)> RunAsync(IReadOnlyDictionary<string, string> environment, params string[] meta)
    {
        var profile = Path.Combine(_directory, "plan.json");
        await File.WriteAllTextAsync(profile, new RunPlan { Name = "headless metadata", Load = new LoadOptions { Concurrency = 2 }, Stop = new StopOptions { DurationSeconds = 1 } }.ToJson());
        var result = Path.Combine(_directory, "plan.result.json");
        File.Delete(result);
        using var output = new StringWriter();
        using var error = new StringWriter();

        var code = await HeadlessCommand.RunAsync([profile, "--summary", result, .. meta], output, error,
            configuration: null, createRunner: null, environment: environment.GetValueOrDefault, CancellationToken.None);

        var written = File.Exists(result) ? JsonNode.Parse(await File.ReadAllTextAsync(result)) : null;
        return (code, output.ToString(), error.ToString(), written);
    }
}
