using System.Collections.ObjectModel;

namespace BenchWeb.Provenance;

/// <summary>
/// The run metadata a CI job's environment gives away: which system runs it (<c>ci</c>), the commit, the branch, the build
/// and a link to the pipeline run, under the same keys whichever system it is. Only the variables named here are read,
/// never the rest of the environment, where a pipeline keeps its secrets:
/// GitHub Actions <c>GITHUB_SHA</c>, <c>GITHUB_REF_NAME</c>, <c>GITHUB_RUN_ID</c>, <c>GITHUB_REPOSITORY</c> and
/// <c>GITHUB_SERVER_URL</c> (for the link; https://github.com when unset);
/// Azure Pipelines <c>BUILD_SOURCEVERSION</c>, <c>BUILD_SOURCEBRANCHNAME</c>, <c>BUILD_BUILDID</c>,
/// <c>SYSTEM_COLLECTIONURI</c> and <c>SYSTEM_TEAMPROJECT</c> (for the link);
/// GitLab CI <c>CI_COMMIT_SHA</c>, <c>CI_COMMIT_REF_NAME</c> and <c>CI_PIPELINE_URL</c>.
/// </summary>
public sealed class PipelineEnvironment
{
    public const string CiKey = "ci";
    public const string CommitKey = "commit";
    public const string BranchKey = "branch";
    public const string BuildKey = "build";
    public const string RepositoryKey = "repository";
    public const string PipelineKey = "pipeline";

    public const string GitHubActions = "github-actions";
    public const string AzurePipelines = "azure-pipelines";
    public const string GitLab = "gitlab";

    private const string DefaultGitHubServer = "https://github.com";

    private PipelineEnvironment(string? system, RunMetadata metadata, IReadOnlyList<string> skipped)
    {
        System = system;
        Metadata = metadata;
        Skipped = skipped;
    }

    /// <summary>The CI system found (<see cref="GitHubActions"/>, <see cref="AzurePipelines"/>, <see cref="GitLab"/>); null
    /// outside a pipeline.</summary>
    public string? System { get; }

    /// <summary>The pairs found, every one within <see cref="RunMetadata"/>'s bounds; empty outside a pipeline.</summary>
    public RunMetadata Metadata { get; }

    /// <summary>The variables set but not kept, each with why (too long, a control character, a link that is not http or
    /// https), e.g. "GITHUB_REF_NAME: At most 200 characters…".</summary>
    public IReadOnlyList<string> Skipped { get; }

    /// <summary>The pipeline's metadata as <paramref name="environment"/> gives it: the process's environment
    /// (<see cref="Environment.GetEnvironmentVariable(string)"/>) or, in a test, a dictionary's lookup.</summary>
    public static PipelineEnvironment Detect(Func<string, string?> environment)
    {
        ArgumentNullException.ThrowIfNull(environment);
        if (Set(environment, "GITHUB_SHA") || Set(environment, "GITHUB_RUN_ID"))
        {
            var found = new Found(environment, GitHubActions);
            found.Add(CommitKey, "GITHUB_SHA");
            found.Add(BranchKey, "GITHUB_REF_NAME");
            found.Add(BuildKey, "GITHUB_RUN_ID");
            found.Add(RepositoryKey, "GITHUB_REPOSITORY");
            if (Read(environment, "GITHUB_REPOSITORY") is { } repository && Read(environment, "GITHUB_RUN_ID") is { } runId)
            {
                var server = (Read(environment, "GITHUB_SERVER_URL") ?? DefaultGitHubServer).TrimEnd('/');
                var path = string.Join('/', repository.Split('/').Select(Uri.EscapeDataString));
                found.AddLink("GITHUB_SERVER_URL, GITHUB_REPOSITORY and GITHUB_RUN_ID", $"{server}/{path}/actions/runs/{Uri.EscapeDataString(runId)}");
            }

            return found.Result();
        }

        if (Set(environment, "BUILD_BUILDID") || Set(environment, "BUILD_SOURCEVERSION"))
        {
            var found = new Found(environment, AzurePipelines);
            found.Add(CommitKey, "BUILD_SOURCEVERSION");
            found.Add(BranchKey, "BUILD_SOURCEBRANCHNAME");
            found.Add(BuildKey, "BUILD_BUILDID");
            if (Read(environment, "SYSTEM_COLLECTIONURI") is { } collection && Read(environment, "SYSTEM_TEAMPROJECT") is { } project
                && Read(environment, "BUILD_BUILDID") is { } buildId)
            {
                // The collection's address ends with a slash as Azure Pipelines sets it; one is added where it does not.
                var root = collection.EndsWith('/') ? collection : collection + "/";
                found.AddLink("SYSTEM_COLLECTIONURI, SYSTEM_TEAMPROJECT and BUILD_BUILDID",
                    $"{root}{Uri.EscapeDataString(project)}/_build/results?buildId={Uri.EscapeDataString(buildId)}");
            }

            return found.Result();
        }

        if (Set(environment, "CI_COMMIT_SHA") || Set(environment, "CI_PIPELINE_URL"))
        {
            var found = new Found(environment, GitLab);
            found.Add(CommitKey, "CI_COMMIT_SHA");
            found.Add(BranchKey, "CI_COMMIT_REF_NAME");
            if (Read(environment, "CI_PIPELINE_URL") is { } pipeline)
            {
                found.AddLink("CI_PIPELINE_URL", pipeline);
            }

            return found.Result();
        }

        return new PipelineEnvironment(null, RunMetadata.Empty, []);
    }

    private static bool Set(Func<string, string?> environment, string name) => Read(environment, name) is not null;

    // A variable set to nothing (or spaces) is as good as unset.
    private static string? Read(Func<string, string?> environment, string name) =>
        environment(name) is { } value && !string.IsNullOrWhiteSpace(value) ? value.Trim() : null;

    /// <summary>The pairs found so far in one system's variables (its name first, under <see cref="CiKey"/>), and the
    /// variables skipped with why.</summary>
    private sealed class Found
    {
        private readonly Func<string, string?> _environment;
        private readonly string _system;
        private readonly List<KeyValuePair<string, string>> _pairs;
        private readonly List<string> _skipped = [];

        public Found(Func<string, string?> environment, string system)
        {
            _environment = environment;
            _system = system;
            _pairs = [KeyValuePair.Create(CiKey, system)];
        }

        /// <summary>The variable <paramref name="variable"/> under <paramref name="key"/>, when it is set.</summary>
        public void Add(string key, string variable)
        {
            if (Read(_environment, variable) is { } value)
            {
                Keep(key, value, variable);
            }
        }

        /// <summary>A link to the pipeline run, made from <paramref name="variables"/>, when it is an http or https address.</summary>
        public void AddLink(string variables, string link)
        {
            if (RunMetadata.LinkOf(link) is null)
            {
                _skipped.Add($"{variables}: the pipeline's address is not an http or https link.");
                return;
            }

            Keep(PipelineKey, link, variables);
        }

        public PipelineEnvironment Result() => new(_system, new RunMetadata(_pairs), new ReadOnlyCollection<string>(_skipped));

        // A value out of bounds is skipped, not cut: a shortened commit or address would point somewhere else.
        private void Keep(string key, string value, string source)
        {
            if (new RunMetadata([KeyValuePair.Create(key, value)]).Validate(source) is [var problem, ..])
            {
                _skipped.Add($"{source}: {problem.Message}");
                return;
            }

            _pairs.Add(KeyValuePair.Create(key, value));
        }
    }
}
