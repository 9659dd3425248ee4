namespace BenchWeb.Data;

/// <summary>A CSV workload file uploaded to the dashboard. The file lives in the data folder's uploads folder under
/// <see cref="StoredName"/>, a name the server made up; the client's file name is only ever shown, never a path.</summary>
public sealed class UploadedFileEntity
{
    public const int MaxDisplayNameLength = 200;

    public long Id { get; set; }

    /// <summary>The client's file name, sanitised: no folders, no control characters, at most
    /// <see cref="MaxDisplayNameLength"/> characters.</summary>
    public required string DisplayName { get; set; }

    /// <summary>The file's name in the uploads folder, e.g. <c>3f2a….csv</c>.</summary>
    public required string StoredName { get; set; }

    public long SizeBytes { get; set; }

    /// <summary>SHA-256 of the file's bytes, lower-case hex.</summary>
    public required string Sha256 { get; set; }

    /// <summary>The header's named columns: the fields each document gets (an <c>id</c> column excepted: the engine sets ids).</summary>
    public int ColumnCount { get; set; }

    /// <summary>Data rows after the header: the documents a run of the whole file writes.</summary>
    public long RowCount { get; set; }

    /// <summary>The uploader's user id.</summary>
    public required string UploadedBy { get; set; }

    public DateTimeOffset UploadedAt { get; set; }
}
