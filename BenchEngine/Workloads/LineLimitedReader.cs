using System.Globalization;

namespace BenchEngine.Workloads;

/// <summary>
/// A text reader that refuses a line longer than a limit, so a file without newlines (or with one huge line) costs at
/// most that much memory instead of all of it. The first line (a CSV header) has its own, smaller limit.
/// </summary>
/// <remarks>Lines are counted by newline characters, so a quoted field spanning lines counts as several: the limit
/// guards memory, it does not parse. Messages say where, never what the line holds.</remarks>
internal sealed class LineLimitedReader(TextReader inner, int firstLineLimit, int lineLimit) : TextReader
{
    private long _line = 1;
    private long _lineLength;

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
                throw new InvalidDataException(_line == 1
                    ? string.Create(CultureInfo.InvariantCulture, $"The header line is longer than {limit / 1024:N0} KB ({limit:N0} characters): is this a CSV file?")
                    : string.Create(CultureInfo.InvariantCulture, $"Line {_line:N0} of the CSV file is longer than {limit:N0} characters, more than any target stores in one item."));
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
