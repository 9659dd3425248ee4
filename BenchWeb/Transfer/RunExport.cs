using System.Text.Json.Serialization;
using BenchEngine.Diagnostics;
using BenchEngine.Metrics;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Provenance;

namespace BenchWeb.Transfer;

/// <summary>A run as one self-contained JSON document (<c>/api/runs/{id}/export.json</c>, and the result file of a
/// headless run): the plan exactly as launched (secret names only, never their values), the client environment, the
/// summary, the verdict, every second and the diagnostics of the slowest requests. A dashboard imports it to show the run beside its own.</summary>
public sealed record RunExport
{
    /// <summary>The format this version writes and reads; a later, incompatible format gets a higher number.</summary>
    public const int CurrentFormatVersion = 1;

    public int FormatVersion { get; init; } = CurrentFormatVersion;

    public DateTimeOffset ExportedAt { get; init; }

    /// <summary>The machine of the installation that exported the run.</summary>
    public string ExportedFrom { get; init; } = "";

    /// <summary>The run's number in the exporting installation; null for a headless run (<c>BenchWeb run</c>), which
    /// has no number until a dashboard imports it. Written even when null, so every document has the same properties.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.Never)]
    public long? RunId { get; init; }

    public string ProfileName { get; init; } = "";

    public string? PresetId { get; init; }

    public RunStatus Status { get; init; }

    public TargetKind TargetKind { get; init; }

    public DateTimeOffset QueuedAt { get; init; }

    public DateTimeOffset? StartedAt { get; init; }

    public DateTimeOffset? EndedAt { get; init; }

    public string? TargetDescription { get; init; }

    public bool TargetIsModel { get; init; }

    public double? ProvisionedRequestUnits { get; init; }

    public string? StopReason { get; init; }

    public string? FailureReason { get; init; }

    public string? FirstError { get; init; }

    public long AbandonedRequests { get; init; }

    public string? Notes { get; init; }

    public IReadOnlyList<string> Tags { get; init; } = [];

    /// <summary>Where the run came from (commit, branch, build, pipeline run…): an object of text values, empty when
    /// nothing was said. Documents written before it existed have none and still import.</summary>
    public RunMetadata Metadata { get; init; } = RunMetadata.Empty;

    /// <summary>The steady-state window chosen by a user, when one was.</summary>
    public int? SteadyStateFirst { get; init; }

    public int? SteadyStateLast { get; init; }

    /// <summary>Set when the exported run was itself imported: where it came from first.</summary>
    public string? ImportedFrom { get; init; }

    public RunPlan? Plan { get; init; }

    public ClientEnvironment? Environment { get; init; }

    public RunSummary? Summary { get; init; }

    public Verdict? Verdict { get; init; }

    /// <summary>What the latency figures cover (see <see cref="RunTransfer.LatencyCoverage"/>).</summary>
    public string? LatencyCoverage { get; init; }

    public IReadOnlyList<RunExportSecond> Seconds { get; init; } = [];

    /// <summary>The slowest requests with their diagnostics, in the order of their seconds. Documents written before they
    /// were kept have none, and import with none.</summary>
    public IReadOnlyList<SlowRequest> SlowRequests { get; init; } = [];
}
