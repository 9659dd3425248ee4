using System.Globalization;

namespace BenchEngine.Workloads;

/// <summary>
/// A text reader that refuses a line longer than a limit, so a file without newlines (or with one huge line) costs at
/// most that much memory instead of all of it. The first line (a CSV header) has its own, smaller limit. The engine reads a
/// CSV file through it, and <see cref="CsvFileCheck"/> checks a file through it, so a file the check accepts is not refused
/// by a run for a line's length.
/// </summary>
/// <remarks>Lines are counted by newline characters, so a quoted field spanning lines counts as several: the limit
/// guards memory, it does not parse. Lengths are in characters (UTF-16 code units) of the decoded text, not bytes of the
/// file. Messages say where, never what the line holds; <see cref="Refused"/> tells which line was refused.</remarks>
internal sealed class LineLimitedReader(TextReader inner, int firstLineLimit, int lineLimit) : TextReader
{
    private const string LineKey = "BenchEngine.LineLimitedReader.Line";
    private const string LimitKey = "BenchEngine.LineLimitedReader.Limit";

    private long _line = 1;
    private long _lineLength;

    /// <summary>The line this reader refused and its limit, when <paramref name="exception"/> is its refusal; else null.</summary>
    /// <param name="exception">An exception reading through the reader threw.</param>
    /// <returns>The line's number in the file, from 1 (the header's), and the most characters it could have had.</returns>
    public static (long Line, int Limit)? Refused(Exception exception) =>
        exception is InvalidDataException && exception.Data[LineKey] is long line && exception.Data[LimitKey] is int limit ? (line, limit) : null;

    public override int Peek() => inner.Peek();

    public override int Read()
    {
        var c = inner.Read();
        if (c >= 0)
        {
            Count([(char)c]);
        }

        return c;
    }

    public override int Read(char[] buffer, int index, int count) => Read(buffer.AsSpan(index, count));

    public override int Read(Span<char> buffer)
    {
        var read = inner.Read(buffer);
        Count(buffer[..read]);
        return read;
    }

    public override Task<int> ReadAsync(char[] buffer, int index, int count) => ReadAsync(buffer.AsMemory(index, count)).AsTask();

    public override async ValueTask<int> ReadAsync(Memory<char> buffer, CancellationToken cancellationToken = default)
    {
        var read = await inner.ReadAsync(buffer, cancellationToken);
        Count(buffer.Span[..read]);
        return read;
    }

    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            inner.Dispose();
        }

        base.Dispose(disposing);
    }

    private void Count(ReadOnlySpan<char> chars)
    {
        while (!chars.IsEmpty)
        {
            var newline = chars.IndexOf('\n');
            var length = newline < 0 ? chars.Length : newline;
            _lineLength += length;
            var limit = _line == 1 ? firstLineLimit : lineLimit;
            if (_lineLength > limit)
            {
                var error = new InvalidDataException(_line == 1
                    ? string.Create(CultureInfo.InvariantCulture, $"The header line is longer than {limit / 1024:N0} KB ({limit:N0} characters): is this a CSV file?")
                    : string.Create(CultureInfo.InvariantCulture, $"Line {_line:N0} of the CSV file is longer than {limit:N0} characters, more than any target stores in one item."));
                error.Data[LineKey] = _line;
                error.Data[LimitKey] = limit;
                throw error;
            }

            if (newline < 0)
            {
                return;
            }

            _line++;
            _lineLength = 0;
            chars = chars[(newline + 1)..];
        }
    }
}
