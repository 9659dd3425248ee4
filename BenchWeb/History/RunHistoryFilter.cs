using BenchEngine.Running;
using BenchEngine.Targets;

namespace BenchWeb.History;

/// <summary>What the run history shows: filters (all optional, combined with AND), the sort and the page.</summary>
public sealed record RunHistoryFilter
{
    public const int DefaultPageSize = 50;

    public const int MaxPageSize = 500;

    /// <summary>Part of the profile name (case-insensitive).</summary>
    public string? Profile { get; init; }

    public TargetKind? TargetKind { get; init; }

    public RunStatus? Status { get; init; }

    /// <summary>Runs queued on or after this day (in the list's time zone).</summary>
    public DateOnly? From { get; init; }

    /// <summary>Runs queued on or before this day (inclusive: the whole day counts).</summary>
    public DateOnly? To { get; init; }

    /// <summary>One tag, or several separated by commas (a run must carry all of them). Whole tags only:
    /// "gate" does not find "gateway".</summary>
    public string? Tag { get; init; }

    /// <summary>Text in the notes (case-insensitive).</summary>
    public string? Notes { get; init; }

    /// <summary>One metadata pair as <c>key=value</c> (<c>commit=1a2b3c4</c>): runs whose metadata has exactly that pair.
    /// Text that is not <c>key=value</c> is no filter.</summary>
    public string? Meta { get; init; }

    /// <summary>The steps of this sweep (its id), re-runs included.</summary>
    public long? Sweep { get; init; }

    public RunHistorySort Sort { get; init; } = RunHistorySort.Id;

    public bool Descending { get; init; } = true;

    /// <summary>1-based; a page past the end shows the last page.</summary>
    public int Page { get; init; } = 1;

    public int PageSize { get; init; } = DefaultPageSize;
}
