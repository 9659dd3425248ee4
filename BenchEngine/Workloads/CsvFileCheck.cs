using System.Globalization;
using System.Text;
using CsvHelper;
using CsvHelper.Configuration;

namespace BenchEngine.Workloads;

/// <summary>Reads a whole CSV workload file as the engine will (CsvHelper, a header row, UTF-8), so a file that is
/// accepted can be run to its end: a file uploaded to the dashboard, and a file a headless profile names, are held to
/// this one check. What it says about a bad file never quotes the file: a row is named by its line.</summary>
public static class CsvFileCheck
{
    /// <summary>The header row's limit, the engine's own. A BTS on-time header is about 1.5 KB.</summary>
    public const int MaxHeaderChars = CsvFileSource.MaxHeaderChars;

    /// <summary>A row's limit, the engine's own, in characters: its document could not be larger than an item Cosmos DB
    /// accepts anyway.</summary>
    public const int MaxRowChars = CsvFileSource.MaxRowChars;

    private const int BufferSize = 64 * 1024;

    private static readonly string HeaderTooLong =
        string.Create(CultureInfo.InvariantCulture, $"The header row is longer than {MaxHeaderChars / 1024} KB ({MaxHeaderChars:N0} characters).");

    /// <summary>The number of named columns and of data rows, or why the file is not a CSV file the engine can run.</summary>
    public static async Task<(int Columns, long Rows, string? Error)> CheckAsync(string path, CancellationToken cancellationToken)
    {
        var stream = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.Read, BufferSize, FileOptions.Asynchronous | FileOptions.SequentialScan);
        // Strict UTF-8: text the engine would read as replacement characters is refused here instead.
        var text = new StreamReader(stream, new UTF8Encoding(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true), detectEncodingFromByteOrderMarks: true, BufferSize);
        // The engine's own line limits (CsvFileSource), through the same reader: exact, where the bounded reader below only
        // bounds what the parser holds (it sees the parser's buffers, which can run past a record's end by as much again).
        var lines = new LineLimitedReader(text, MaxHeaderChars, MaxRowChars);
        var reader = new RecordBoundedReader(lines, MaxHeaderChars);
        using var csv = new CsvReader(reader, new CsvConfiguration(CultureInfo.InvariantCulture) { DetectColumnCountChanges = false });
        var columns = 0;
        long rows = 0;
        int? field = null;
        try
        {
            if (!await csv.ReadAsync() || !csv.ReadHeader() || csv.HeaderRecord is not { } header)
            {
                return (0, 0, "The file is empty: a CSV file with a header row is needed.");
            }

            var names = new HashSet<string>(StringComparer.Ordinal);
            for (var i = 0; i < header.Length; i++)
            {
                // As the engine reads it: a nameless column (BTS files end each line with a comma) and an id column are skipped.
                var name = header[i].Trim();
                if (name.Length == 0 || name == "id")
                {
                    continue;
                }

                if (!names.Add(name))
                {
                    return (0, 0, string.Create(CultureInfo.InvariantCulture, $"Column {i + 1} of the header row repeats an earlier column's name; each column needs a name of its own."));
                }

                columns++;
            }

            if (columns == 0)
            {
                return (0, 0, "The header row names no columns.");
            }

            reader.RecordEnded();
            reader.Limit = MaxRowChars;
            var parser = csv.Parser;
            while (await csv.ReadAsync())
            {
                reader.RecordEnded();
                // CsvHelper finds bad data (a stray quote) when a field is read, as the engine reads them all.
                for (var i = 0; i < parser.Count; i++)
                {
                    field = i;
                    _ = parser[i];
                }

                field = null;
                if (parser.Count != header.Length)
                {
                    // A missing field would become an empty value in every document made from the row, unnoticed.
                    return (0, 0, string.Create(CultureInfo.InvariantCulture,
                        $"Line {parser.RawRow:N0} of the file has {parser.Count:N0} field{(parser.Count == 1 ? "" : "s")} but the header row has {header.Length:N0}: {(parser.Count < header.Length ? "a field is missing" : "there are more fields than columns")}."));
                }

                rows++;
                if (rows % 10_000 == 0)
                {
                    cancellationToken.ThrowIfCancellationRequested();
                }
            }
        }
        catch (InvalidDataException ex) when (LineLimitedReader.Refused(ex) is { } refused)
        {
            // A line lies within one record, and the parser asks for more text only within the record it is reading: the
            // row being read holds the line.
            return (0, 0, refused.Line == 1
                ? HeaderTooLong
                : string.Create(CultureInfo.InvariantCulture, $"Line {refused.Line:N0} of the file (data row {rows + 1:N0}) is longer than {refused.Limit:N0} characters, the most a run reads in one row: no document can be that large."));
        }
        catch (RecordTooLongException)
        {
            // A quoted field spanning lines, each within the limit: the row is still longer than any document.
            return (0, 0, columns == 0
                ? HeaderTooLong
                : string.Create(CultureInfo.InvariantCulture, $"Data row {rows + 1:N0} is longer than {MaxRowChars:N0} characters: no document can be that large."));
        }
        catch (DecoderFallbackException)
        {
            // Text is decoded a buffer at a time, ahead of the parser: no row number would be exact.
            return (0, 0, "The file is not UTF-8 text; save it as UTF-8 (the engine reads UTF-8).");
        }
        catch (CsvHelperException ex)
        {
            // CsvHelper's own message quotes the record; only its line in the file, the field and the kind of mistake are said.
            return (0, 0, CsvErrorText.Describe(ex, field, "the file"));
        }

        return rows == 0 ? (0, 0, "The file has a header row but no data rows.") : (columns, rows, null);
    }
}
