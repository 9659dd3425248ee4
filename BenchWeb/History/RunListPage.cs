using BenchWeb.Data;

namespace BenchWeb.History;

/// <summary>A page of whole runs, as the HTTP API lists them, and how many runs match the filters in all.</summary>
public sealed record RunListPage(IReadOnlyList<RunEntity> Runs, int TotalCount);
