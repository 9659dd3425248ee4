namespace BenchWeb.History;

/// <summary>One page of the run history and how many runs match the filters in all.</summary>
public sealed record RunHistoryPage(IReadOnlyList<RunHistoryRow> Rows, int TotalCount, int Page, int PageSize)
{
    public int PageCount => TotalCount == 0 ? 1 : (TotalCount + PageSize - 1) / PageSize;
}
