namespace BenchWeb.Apis;

/// <summary>One page of audit entries, newest first, and how many match in all.</summary>
public sealed record AuditPageResponse(IReadOnlyList<AuditEntryResponse> Items, int Page, int PageSize, int Total);
