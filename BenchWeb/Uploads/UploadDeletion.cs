namespace BenchWeb.Uploads;

/// <summary>How a delete ended: done, the file did not exist, or refused because <see cref="UsedBy"/> needs it.</summary>
public sealed record UploadDeletion(bool Found, IReadOnlyList<UploadedFileUse> UsedBy)
{
    public bool Deleted => Found && UsedBy.Count == 0;
}
