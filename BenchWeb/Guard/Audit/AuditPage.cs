using BenchWeb.Data;

namespace BenchWeb.Guard.Audit;

/// <summary>One page of audit entries, newest first, and how many match in all.</summary>
public sealed record AuditPage(IReadOnlyList<AuditEntryEntity> Entries, int Page, int PageSize, int TotalCount)
{
    public int PageCount => TotalCount == 0 ? 1 : (TotalCount + PageSize - 1) / PageSize;
}
