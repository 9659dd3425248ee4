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
        var line = RecordStartLine(exception.Context?.Parser);
        var where = line is > 0
            ? string.Create(CultureInfo.InvariantCulture, $"Line {line:N0}{(field is { } f ? $", field {f + 1:N0}" : "")} of {file}")
            : char.ToUpperInvariant(file[0]) + file[1..];
        var what = exception is BadDataException
            ? "a quote inside a field that is not quoted, or a quoted field that is never closed"
            : "it cannot be read as CSV there";
        return $"{where} is not valid CSV: {what}.";
    }

    /// <summary>The line the record being read started on. The parser's line count has moved on over the line breaks of a
    /// quoted field, to the end of the file when the quote never closed: those in its raw record are counted back, all of
    /// them when a quoted field is still open at its end, else all but the one that ended the record.</summary>
    private static long? RecordStartLine(IParser? parser)
    {
        if (parser is null)
        {
            return null;
        }

        var raw = parser.RawRecord ?? "";
        var delimiter = parser.Delimiter is { Length: 1 } d ? d[0] : ',';
        var breaks = 0;
        var inQuotes = false;
        var fieldStart = true;
        for (var i = 0; i < raw.Length; i++)
        {
            var c = raw[i];
            if (c == '\n' || (c == '\r' && (i + 1 == raw.Length || raw[i + 1] != '\n')))
            {
                breaks++;
            }

            if (inQuotes)
            {
                // A doubled quote is an escaped one; a single one closes the field.
                if (c == '"' && (i + 1 < raw.Length && raw[i + 1] == '"'))
                {
                    i++;
                }
                else if (c == '"')
                {
                    inQuotes = false;
                }

                continue;
            }

            // Only a quote that starts a field opens a quoted field; one inside a field is the stray quote being reported.
            inQuotes = c == '"' && fieldStart;
            fieldStart = c == delimiter || c is '\n' or '\r';
        }

        if (!inQuotes && breaks > 0 && raw[^1] is '\n' or '\r')
        {
            breaks--;
        }

        return Math.Max(1, parser.RawRow - breaks);
    }
}
