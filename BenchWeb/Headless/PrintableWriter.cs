using System.Text;
using BenchEngine.Running;

namespace BenchWeb.Headless;

/// <summary>What the <c>run</c> command prints goes through this writer: text from a profile, a sweep or a file (a name,
/// a field, a path) reaches the terminal with its control and bidirectional characters written as code points
/// (<see cref="PlainText.Escape"/>), so a plan can neither ring the bell, send an ANSI escape sequence, overwrite a line
/// nor reverse what follows. Line breaks and tabs stay.</summary>
internal sealed class PrintableWriter(TextWriter inner) : TextWriter
{
    public override Encoding Encoding => inner.Encoding;

    public override IFormatProvider FormatProvider => inner.FormatProvider;

    [System.Diagnostics.CodeAnalysis.AllowNull]
    public override string NewLine
    {
        get => inner.NewLine;
        set => inner.NewLine = value;
    }

    public override void Write(char value) => inner.Write(Printable(value.ToString()));

    public override void Write(string? value) => inner.Write(Printable(value));

    public override void Write(char[] buffer, int index, int count) => inner.Write(Printable(new string(buffer, index, count)));

    public override void WriteLine() => inner.WriteLine();

    public override void WriteLine(string? value) => inner.WriteLine(Printable(value));

    public override Task WriteAsync(char value) => inner.WriteAsync(Printable(value.ToString()));

    public override Task WriteAsync(string? value) => inner.WriteAsync(Printable(value));

    public override Task WriteAsync(char[] buffer, int index, int count) => inner.WriteAsync(Printable(new string(buffer, index, count)));

    public override Task WriteAsync(ReadOnlyMemory<char> buffer, CancellationToken cancellationToken = default) =>
        inner.WriteAsync(Printable(buffer.ToString()).AsMemory(), cancellationToken);

    public override Task WriteLineAsync() => inner.WriteLineAsync();

    public override Task WriteLineAsync(char value) => inner.WriteLineAsync(Printable(value.ToString()));

    public override Task WriteLineAsync(string? value) => inner.WriteLineAsync(Printable(value));

    public override Task WriteLineAsync(char[] buffer, int index, int count) => inner.WriteLineAsync(Printable(new string(buffer, index, count)));

    public override Task WriteLineAsync(ReadOnlyMemory<char> buffer, CancellationToken cancellationToken = default) =>
        inner.WriteLineAsync(Printable(buffer.ToString()).AsMemory(), cancellationToken);

    public override void Flush() => inner.Flush();

    public override Task FlushAsync() => inner.FlushAsync();

    private static string Printable(string? value) => value is null ? "" : PlainText.Escape(value, keepLineBreaks: true);
}
