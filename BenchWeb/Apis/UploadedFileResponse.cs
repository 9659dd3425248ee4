using BenchWeb.Data;
using BenchWeb.Uploads;

namespace BenchWeb.Apis;

/// <summary>An uploaded CSV workload file as the API describes it: never its content, never where it is stored. A plan
/// names it as <c>workload.csvFileId</c>.</summary>
public sealed record UploadedFileResponse
{
    public long Id { get; init; }

    /// <summary>The client's file name, sanitised; shown only.</summary>
    public string Name { get; init; } = "";

    public long SizeBytes { get; init; }

    /// <summary>SHA-256 of the file's bytes, lower-case hex: compare it with <c>sha256sum</c> of your copy.</summary>
    public string Sha256 { get; init; } = "";

    /// <summary>Named columns of the header: the fields of each document.</summary>
    public int ColumnCount { get; init; }

    /// <summary>Data rows: the documents a run of the whole file writes.</summary>
    public long RowCount { get; init; }

    /// <summary>The uploader's user id.</summary>
    public string UploadedBy { get; init; } = "";

    public DateTimeOffset UploadedAt { get; init; }

    /// <summary>Profiles naming the file, and runs queued or running with it: while there are any, it cannot be deleted.</summary>
    public IReadOnlyList<UploadedFileUse> UsedBy { get; init; } = [];

    internal static UploadedFileResponse From(UploadedFileEntity file, IEnumerable<UploadedFileUse> usedBy) => new()
    {
        Id = file.Id,
        Name = file.DisplayName,
        SizeBytes = file.SizeBytes,
        Sha256 = file.Sha256,
        ColumnCount = file.ColumnCount,
        RowCount = file.RowCount,
        UploadedBy = file.UploadedBy,
        UploadedAt = file.UploadedAt,
        UsedBy = [.. usedBy],
    };
}
