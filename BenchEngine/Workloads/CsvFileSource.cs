using System.Globalization;
using System.Text;
using CsvHelper;
using CsvHelper.Configuration;

namespace BenchEngine.Workloads;

/// <summary>
/// Rows of a CSV file with a header, read one at a time so a multi-gigabyte BTS file costs no more
/// memory than a small one. Values stay strings, as the seed loader stored them.
/// </summary>
/// <remarks>
/// Columns with an empty header are skipped (the BTS file ends every line with a comma, which makes a
/// 110th, nameless column), and so is an <c>id</c> column: the engine sets ids. A row with more or fewer fields than the
/// header is refused, naming its line (as <see cref="CsvFileCheck"/> refuses the file before a run).
/// </remarks>
internal sealed class CsvFileSource : IFieldSource
{
    /// <summary>The longest header line read: a file without newlines once took the app from 1.5 to 4 GB.</summary>
    public const int MaxHeaderChars = 64 * 1024;

    /// <summary>The longest row, in characters of the decoded text, not bytes of the file (2 MB of ASCII; a character that
    /// takes several bytes in UTF-8 counts once): no target stores a larger item, so a longer line is refused before it fills
    /// memory. <see cref="CsvFileCheck"/> holds a file to this same limit, through the same reader.</summary>
    public const int MaxRowChars = 2 * 1024 * 1024;

    private const int BufferSize = 64 * 1024;

    private readonly CsvReader _csv;
    private readonly int[] _columns;
    private readonly string[] _names;
    private readonly int _fieldCount;

    private CsvFileSource(CsvReader csv, int[] columns, string[] names, int fieldCount, string fileName)
    {
        _csv = csv;
        _columns = columns;
        _names = names;
        _fieldCount = fieldCount;
        Description = string.Create(CultureInfo.InvariantCulture, $"CSV file '{fileName}' ({names.Length} columns)");
    }

    public string Description { get; }

    public IReadOnlyList<string> FieldNames => _names;

    /// <summary>Opens the file and reads its header. Exception messages name the file and what is wrong, never
    /// what the file holds.</summary>
    /// <exception cref="FileNotFoundException">Nothing is at the path.</exception>
    /// <exception cref="InvalidDataException">Not a regular file, no header row, a header line longer than
    /// <see cref="MaxHeaderChars"/>, or a column name that repeats.</exception>
    /// <exception cref="IOException">The file cannot be read.</exception>
    /// <exception cref="CsvHelperException">The header is not valid CSV (its message quotes the file: do not pass it on).</exception>
    public static CsvFileSource Open(string path)
    {
        var name = Path.GetFileName(path);
        switch (RegularFile.Inspect(path))
        {
            case FileKind.Missing:
                throw new FileNotFoundException($"File '{name}' does not exist.");
            case FileKind.NotRegular:
                throw new InvalidDataException($"'{name}' is not a regular file (a folder, a named pipe or a device): only a regular file is read.");
            case FileKind.Unreadable:
                throw new UnauthorizedAccessException($"'{name}' cannot be read: permission denied.");
        }

        var stream = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.Read, BufferSize, FileOptions.SequentialScan);
        var text = new LineLimitedReader(new StreamReader(stream, Encoding.UTF8, detectEncodingFromByteOrderMarks: true, BufferSize), MaxHeaderChars, MaxRowChars);
        var csv = new CsvReader(text, new CsvConfiguration(CultureInfo.InvariantCulture) { DetectColumnCountChanges = false });
        try
        {
            if (!csv.Read() || !csv.ReadHeader() || csv.HeaderRecord is not { } header)
            {
                throw new InvalidDataException($"'{name}' is empty: a header row is needed.");
            }

            var columns = new List<int>();
            var names = new List<string>();
            for (var i = 0; i < header.Length; i++)
            {
                var column = header[i].Trim();
                if (column.Length == 0 || column == "id")
                {
                    continue;
                }

                if (names.IndexOf(column) is var earlier and >= 0)
                {
                    // Positions, not the name: a header is the file's content.
                    throw new InvalidDataException(string.Create(
                        CultureInfo.InvariantCulture,
                        $"In '{name}' a column name appears more than once in the header (columns {columns[earlier] + 1} and {i + 1})."));
                }

                columns.Add(i);
                names.Add(column);
            }

            return new CsvFileSource(csv, [.. columns], [.. names], header.Length, name);
        }
        catch
        {
            csv.Dispose();
            throw;
        }
    }

    public bool TryFill(long sequence, Span<KeyValuePair<string, object?>> fields)
    {
        // CsvHelper finds a stray quote when the field is read: the field being read names the column.
        int? column = null;
        try
        {
            if (!_csv.Read())
            {
                return false;
            }

            var parser = _csv.Parser;
            for (var i = 0; i < _columns.Length; i++)
            {
                column = _columns[i];
                fields[i] = new(_names[i], column < parser.Count ? parser[column.Value] : string.Empty);
            }

            // After the fields, so that a stray quote, which may merge or split fields, is the error reported.
            if (parser.Count != _fieldCount)
            {
                throw CsvErrorText.Plain(string.Create(CultureInfo.InvariantCulture,
                    $"Line {parser.RawRow:N0} of the CSV file has {parser.Count:N0} fields but its header row has {_fieldCount:N0}."));
            }
        }
        catch (CsvHelperException ex)
        {
            // CsvHelper's message quotes the raw row: only where and what kind of problem goes on.
            throw CsvErrorText.Exception(ex, column);
        }

        return true;
    }

    /// <summary>Closes the file (the reader owns the stream).</summary>
    public void Dispose() => _csv.Dispose();
}
