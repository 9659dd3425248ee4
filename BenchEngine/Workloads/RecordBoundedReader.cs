namespace BenchEngine.Workloads;

/// <summary>Hands a CSV parser the text of a file while bounding how much of one record it can hold: a parser keeps
/// the record it is reading whole in memory, so a file that is one enormous row would otherwise be read whole.</summary>
/// <remarks>The reader knows where each record ended (the caller says so with <see cref="RecordEnded"/>); when the
/// parser asks for more text while the characters handed out since then exceed the limit, the record is at least that
/// long, and reading stops with <see cref="RecordTooLongException"/>.</remarks>
internal sealed class RecordBoundedReader(TextReader inner, int limit) : TextReader
{
    private long _delivered;
    private long _recordStart;

    /// <summary>The most characters one record may have; the header and the rows get different limits.</summary>
    public int Limit { get; set; } = limit;

    /// <summary>The parser finished a record: the next one starts with the characters not yet handed out.</summary>
    public void RecordEnded() => _recordStart = _delivered;

    public override int Peek() => inner.Peek();

    public override int Read()
    {
        var c = inner.Read();
        Count(c >= 0 ? 1 : 0);
        return c;
    }

    public override int Read(char[] buffer, int index, int count) => Count(inner.Read(buffer, index, count));

    public override int Read(Span<char> buffer) => Count(inner.Read(buffer));

    public override async Task<int> ReadAsync(char[] buffer, int index, int count) => Count(await inner.ReadAsync(buffer, index, count));

    public override async ValueTask<int> ReadAsync(Memory<char> buffer, CancellationToken cancellationToken = default) =>
        Count(await inner.ReadAsync(buffer, cancellationToken));

    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            inner.Dispose();
        }

        base.Dispose(disposing);
    }

    private int Count(int read)
    {
        // Checked before handing out more: what came since the last record's end all belongs to the unfinished one.
        if (_delivered - _recordStart > Limit)
        {
            throw new RecordTooLongException();
        }

        _delivered += read;
        return read;
    }
}
