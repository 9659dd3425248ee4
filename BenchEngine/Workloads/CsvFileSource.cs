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
/// 110th, nameless column), and so is an <c>id</c> column: the engine sets ids. Rows shorter than the
/// header get empty strings for the missing fields.
/// </remarks>
internal sealed class CsvFileSource : IFieldSource
{
    private const int BufferSize = 64 * 1024;

    private readonly CsvReader _csv;
    private readonly int[] _columns;
    private readonly string[] _names;

    private CsvFileSource(CsvReader csv, int[] columns, string[] names, string fileName)
    {
        _csv = csv;
        _columns = columns;
        _names = names;
        Description = string.Create(CultureInfo.InvariantCulture, $"CSV file '{fileName}' ({names.Length} columns)");
    }

    public string Description { get; }

    public IReadOnlyList<string> FieldNames => _names;

    /// <summary>Opens the file and reads its header.</summary>
    /// <exception cref="InvalidDataException">The file has no header row, or a column name repeats.</exception>
    /// <exception cref="IOException">The file cannot be read.</exception>
    public static CsvFileSource Open(string path)
    {
        var stream = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.Read, BufferSize, FileOptions.SequentialScan);
        var csv = new CsvReader(
            new StreamReader(stream, Encoding.UTF8, detectEncodingFromByteOrderMarks: true, BufferSize),
            new CsvConfiguration(CultureInfo.InvariantCulture) { DetectColumnCountChanges = false });
        try
        {
            if (!csv.Read() || !csv.ReadHeader() || csv.HeaderRecord is not { } header)
            {
                throw new InvalidDataException($"'{Path.GetFileName(path)}' is empty: a header row is needed.");
            }

            var columns = new List<int>();
            var names = new List<string>();
            for (var i = 0; i < header.Length; i++)
            {
                var name = header[i].Trim();
                if (name.Length == 0 || name == "id")
                {
                    continue;
                }

                if (names.Contains(name, StringComparer.Ordinal))
                {
                    throw new InvalidDataException($"column '{name}' appears more than once in the header of '{Path.GetFileName(path)}'.");
                }

                columns.Add(i);
                names.Add(name);
            }

            return new CsvFileSource(csv, [.. columns], [.. names], Path.GetFileName(path));
        }
        catch
        {
            csv.Dispose();
            throw;
        }
    }

    public bool TryFill(long sequence, Span<KeyValuePair<string, object?>> fields)
    {
        if (!_csv.Read())
        {
            return false;
        }

        var parser = _csv.Parser;
        for (var i = 0; i < _columns.Length; i++)
        {
            var column = _columns[i];
            fields[i] = new(_names[i], column < parser.Count ? parser[column] : string.Empty);
        }

        return true;
    }

    /// <summary>Closes the file (the reader owns the stream).</summary>
    public void Dispose() => _csv.Dispose();
}
