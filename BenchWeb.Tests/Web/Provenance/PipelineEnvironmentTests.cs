using BenchWeb.Provenance;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Web.Provenance;

/// <summary>What a CI job's environment gives a run, from a dictionary standing in for the environment: the process's own
/// environment is never read or changed.</summary>
[UnitTest]
public sealed class PipelineEnvironmentTests
{
    /// <summary>Every variable the detection may read; any other is the pipeline's business (its secrets among them).</summary>
    private static readonly HashSet<string> Named = new(StringComparer.Ordinal)
    {
        "GITHUB_SHA", "GITHUB_REF_NAME", "GITHUB_RUN_ID", "GITHUB_REPOSITORY", "GITHUB_SERVER_URL",
        "BUILD_SOURCEVERSION", "BUILD_SOURCEBRANCHNAME", "BUILD_BUILDID", "SYSTEM_COLLECTIONURI", "SYSTEM_TEAMPROJECT",
        "CI_COMMIT_SHA", "CI_COMMIT_REF_NAME", "CI_PIPELINE_URL",
    };

    // What a pipeline also has in its environment: none of it may end up in a run.
    private static readonly Dictionary<string, string> Unrelated = new(StringComparer.Ordinal)
    {
        ["COSMOS_KEY"] = "c2VjcmV0LWNvc21vcy1rZXk=",
        ["GITHUB_TOKEN"] = "ghs_secretTokenValue",
        ["SYSTEM_ACCESSTOKEN"] = "azure-secret-token",
        ["CI_JOB_TOKEN"] = "gitlab-secret-token",
        ["GITHUB_ACTOR"] = "someone",
        ["HOME"] = "/home/runner",
    };

    [Fact]
    public void Detect_GitHubActions_GivesCommitBranchBuildRepositoryAndTheRunsLink()
    {
        var (detected, asked) = Detect(new()
        {
            ["GITHUB_SHA"] = "0123456789abcdef0123456789abcdef01234567",
            ["GITHUB_REF_NAME"] = "main",
            ["GITHUB_RUN_ID"] = "9876543210",
            ["GITHUB_REPOSITORY"] = "octo-org/bench-app",
        });

        Assert.Equal(PipelineEnvironment.GitHubActions, detected.System);
        Assert.Equal(
            [
                Pair("ci", "github-actions"), Pair("commit", "0123456789abcdef0123456789abcdef01234567"), Pair("branch", "main"), Pair("build", "9876543210"),
                Pair("repository", "octo-org/bench-app"), Pair("pipeline", "https://github.com/octo-org/bench-app/actions/runs/9876543210"),
            ],
            detected.Metadata.Pairs);
        Assert.Empty(detected.Skipped);
        Assert.Empty(detected.Metadata.Validate());
        AssertOnlyNamedVariablesRead(detected, asked);
    }

    [Fact]
    public void Detect_GitHubEnterpriseServer_LinksToItsOwnServer()
    {
        var (detected, _) = Detect(new()
        {
            ["GITHUB_SHA"] = "abc",
            ["GITHUB_RUN_ID"] = "12",
            ["GITHUB_REPOSITORY"] = "team/app",
            ["GITHUB_SERVER_URL"] = "https://github.example.com/",
        });

        Assert.Equal("https://github.example.com/team/app/actions/runs/12", detected.Metadata["pipeline"]);
    }

    [Fact]
    public void Detect_AzurePipelines_GivesCommitBranchBuildAndTheBuildsResultsLink()
    {
        var (detected, asked) = Detect(new()
        {
            ["BUILD_SOURCEVERSION"] = "fedcba9876543210fedcba9876543210fedcba98",
            ["BUILD_SOURCEBRANCHNAME"] = "release",
            ["BUILD_BUILDID"] = "4711",
            ["SYSTEM_COLLECTIONURI"] = "https://dev.azure.com/contoso/",
            ["SYSTEM_TEAMPROJECT"] = "Bench Web",
        });

        Assert.Equal(PipelineEnvironment.AzurePipelines, detected.System);
        Assert.Equal(
            [
                Pair("ci", "azure-pipelines"), Pair("commit", "fedcba9876543210fedcba9876543210fedcba98"), Pair("branch", "release"), Pair("build", "4711"),
                Pair("pipeline", "https://dev.azure.com/contoso/Bench%20Web/_build/results?buildId=4711"),
            ],
            detected.Metadata.Pairs);
        AssertOnlyNamedVariablesRead(detected, asked);
    }

    [Fact]
    public void Detect_AzurePipelinesCollectionWithoutATrailingSlash_StillLinksToTheBuild()
    {
        var (detected, _) = Detect(new()
        {
            ["BUILD_BUILDID"] = "1",
            ["SYSTEM_COLLECTIONURI"] = "https://tfs.contoso.example/DefaultCollection",
            ["SYSTEM_TEAMPROJECT"] = "bench",
        });

        Assert.Equal("https://tfs.contoso.example/DefaultCollection/bench/_build/results?buildId=1", detected.Metadata["pipeline"]);
        Assert.Null(detected.Metadata["commit"]);
    }

    [Fact]
    public void Detect_GitLab_GivesCommitBranchAndThePipelinesOwnLink()
    {
        var (detected, asked) = Detect(new()
        {
            ["CI_COMMIT_SHA"] = "1111111111111111111111111111111111111111",
            ["CI_COMMIT_REF_NAME"] = "feature/metadata",
            ["CI_PIPELINE_URL"] = "https://gitlab.example.com/group/app/-/pipelines/314",
        });

        Assert.Equal(PipelineEnvironment.GitLab, detected.System);
        Assert.Equal(
            [
                Pair("ci", "gitlab"), Pair("commit", "1111111111111111111111111111111111111111"), Pair("branch", "feature/metadata"),
                Pair("pipeline", "https://gitlab.example.com/group/app/-/pipelines/314"),
            ],
            detected.Metadata.Pairs);
        AssertOnlyNamedVariablesRead(detected, asked);
    }

    [Fact]
    public void Detect_OutsideAPipeline_GivesNothing_AndReadsOnlyTheNamedVariables()
    {
        var (detected, asked) = Detect(new() { ["GITHUB_REF_NAME"] = "main", ["CI_COMMIT_REF_NAME"] = "dev" });

        Assert.Null(detected.System);
        Assert.True(detected.Metadata.IsEmpty);
        Assert.Empty(detected.Skipped);
        AssertOnlyNamedVariablesRead(detected, asked);
    }

    [Fact]
    public void Detect_AVariableSetToSpaces_IsAsGoodAsUnset()
    {
        var (detected, _) = Detect(new() { ["GITHUB_SHA"] = "abc", ["GITHUB_REF_NAME"] = "  ", ["GITHUB_RUN_ID"] = "" });

        Assert.Equal([Pair("ci", "github-actions"), Pair("commit", "abc")], detected.Metadata.Pairs);
    }

    [Fact]
    public void Detect_ValuesOutOfBounds_AreSkippedWithWhy_NeverCutShortOrKept()
    {
        var (detected, _) = Detect(new()
        {
            ["CI_COMMIT_SHA"] = "abc",
            ["CI_COMMIT_REF_NAME"] = new string('b', 201),
            ["CI_PIPELINE_URL"] = "javascript:alert(document.cookie)",
        });
        var (bell, _) = Detect(new() { ["GITHUB_SHA"] = "abc\u0007", ["GITHUB_RUN_ID"] = "5", ["GITHUB_REPOSITORY"] = "a/b", ["GITHUB_SERVER_URL"] = "file:///etc" });

        Assert.Equal([Pair("ci", "gitlab"), Pair("commit", "abc")], detected.Metadata.Pairs);
        Assert.Equal(
            ["CI_COMMIT_REF_NAME: At most 200 characters; this value has 201.", "CI_PIPELINE_URL: the pipeline's address is not an http or https link."],
            detected.Skipped);
        Assert.Equal([Pair("ci", "github-actions"), Pair("build", "5"), Pair("repository", "a/b")], bell.Metadata.Pairs);
        Assert.Equal(2, bell.Skipped.Count);
        Assert.StartsWith("GITHUB_SHA: Contains a control character (U+0007)", bell.Skipped[0], StringComparison.Ordinal);
    }

    private static void AssertOnlyNamedVariablesRead(PipelineEnvironment detected, IReadOnlyCollection<string> asked)
    {
        Assert.All(asked, name => Assert.Contains(name, Named));
        var kept = string.Join("\n", detected.Metadata.Pairs.Select(p => p.Key + "=" + p.Value));
        Assert.All(Unrelated.Values, secret => Assert.DoesNotContain(secret, kept, StringComparison.Ordinal));
    }

    /// <summary>Detection over these variables and the unrelated ones, and the names it asked for.</summary>
    private static (PipelineEnvironment Detected, IReadOnlyCollection<string> Asked) Detect(Dictionary<string, string> variables)
    {
        var environment = new Dictionary<string, string>(Unrelated, StringComparer.Ordinal);
        foreach (var (name, value) in variables)
        {
            environment[name] = value;
        }

        var asked = new List<string>();
        var detected = PipelineEnvironment.Detect(name =>
        {
            asked.Add(name);
            return environment.GetValueOrDefault(name);
        });
        return (detected, asked);
    }

    private static KeyValuePair<string, string> Pair(string key, string value) => KeyValuePair.Create(key, value);
}
