namespace BenchWeb.Apis;

/// <summary>One page of runs, newest first, and how many runs match in all.</summary>
public sealed record RunPage(IReadOnlyList<RunListItem> Items, int Page, int PageSize, int Total);
