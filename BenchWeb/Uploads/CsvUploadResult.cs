using BenchEngine.Running;
using BenchWeb.Data;

namespace BenchWeb.Uploads;

/// <summary>How an upload ended: stored (<see cref="File"/>), or refused with the reason under the field <c>file</c>
/// (<see cref="TooLarge"/> when it was over the size limit, which the API answers with 413).</summary>
public sealed record CsvUploadResult
{
    /// <summary>The field an upload's errors are reported under: the form field that carries the file.</summary>
    public const string Field = "file";

    public UploadedFileEntity? File { get; private init; }

    public FieldError? Error { get; private init; }

    public bool TooLarge { get; private init; }

    public static CsvUploadResult Stored(UploadedFileEntity file) => new() { File = file };

    public static CsvUploadResult Refused(string message, bool tooLarge = false) => new() { Error = new FieldError(Field, message), TooLarge = tooLarge };
}
