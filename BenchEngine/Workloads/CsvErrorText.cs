using System.Globalization;
using CsvHelper;

namespace BenchEngine.Workloads;

/// <summary>Says where a CSV file stops being CSV, in plain words: its line in the file and the field on it, and what
/// kind of mistake it is. CsvHelper's own messages quote the raw record and list parser internals; a file's contents
/// are not repeated here.</summary>
public static class CsvErrorText
{
    // Marks the exceptions made here: their messages quote nothing, so a caller that hides other messages can pass them on.
    private const string PlainWords = "BenchEngine.CsvErrorText";

    /// <summary>The exception a reader throws for a CSV error: an <see cref="InvalidDataException"/> saying
    /// <see cref="Describe"/>, without CsvHelper's exception (whose message quotes the record).</summary>
    public static InvalidDataException Exception(CsvHelperException exception, int? field) => Plain(Describe(exception, field));

    /// <summary>An <see cref="InvalidDataException"/> saying <paramref name="message"/>, which quotes nothing of the file:
    /// marked so that <see cref="IsPlain"/> lets it be shown.</summary>
    public static InvalidDataException Plain(string message)
    {
        var error = new InvalidDataException(message);
        error.Data[PlainWords] = true;
        return error;
    }

    /// <summary>Whether <paramref name="exception"/> was made by <see cref="Exception"/>: its message can be shown as it is.</summary>
    public static bool IsPlain(Exception exception) => exception is InvalidDataException && exception.Data.Contains(PlainWords);

    /// <summary>E.g. "Line 3, field 2 of the CSV file is not valid CSV: a quote inside a field that is not quoted, or a
    /// quoted field that is never closed."</summary>
    /// <param name="exception">What CsvHelper threw.</param>
    /// <param name="field">The 0-based field being read when it threw, if known.</param>
    /// <param name="file">How to name the file, e.g. "the CSV file".</param>
    public static string Describe(CsvHelperException exception, int? field, string file = "the CSV file")
    {
        ArgumentNullException.ThrowIfNull(exception);
        var line = exception.Context?.Parser?.RawRow;
        var where = line is > 0
            ? string.Create(CultureInfo.InvariantCulture, $"Line {line:N0}{(field is { } f ? $", field {f + 1:N0}" : "")} of {file}")
            : char.ToUpperInvariant(file[0]) + file[1..];
        var what = exception is BadDataException
            ? "a quote inside a field that is not quoted, or a quoted field that is never closed"
            : "it cannot be read as CSV there";
        return $"{where} is not valid CSV: {what}.";
    }
}
