using System.Globalization;
using System.Text;
using BenchEngine.Diagnostics;

namespace BenchEngine.Running;

/// <summary>
/// The one rule for text a user types that is shown or exported (a plan's or profile's name, a description, run tags and
/// notes, a user's or token's name, the kill switch's reason): no control characters, no bidirectional-text controls, and
/// nothing shaped like a credential (<see cref="CredentialRedaction.FindCredential"/>).
/// A NUL or BEL turns a CSV export binary, an ESC starts a terminal escape sequence, and U+202E (right-to-left override)
/// makes a name display as something it is not. <see cref="Check"/> refuses such text where it is typed;
/// <see cref="Escape"/> shows text from elsewhere (a file, an older database) with those characters made visible.
/// </summary>
public static class PlainText
{
    /// <summary>Whether <paramref name="c"/> is refused: a C0 or C1 control character (NUL, BEL, ESC, DEL…), or a
    /// character that changes the direction text is displayed in (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069).</summary>
    public static bool IsRefused(char c) =>
        char.IsControl(c) || c is '\u061C' or '\u200E' or '\u200F' or (>= '\u202A' and <= '\u202E') or (>= '\u2066' and <= '\u2069');

    /// <summary>Whether <paramref name="text"/> shows as nothing: null, empty, or only spaces and invisible characters
    /// (U+200B zero-width space, U+FEFF, U+2060 and the other format characters). A name must have something to show.</summary>
    public static bool IsBlank(string? text) =>
        text is null || text.All(c => char.IsWhiteSpace(c) || CharUnicodeInfo.GetUnicodeCategory(c) == UnicodeCategory.Format);

    /// <summary>Null when <paramref name="text"/> may be stored; otherwise why not, naming the first refused character by its
    /// code point (never the character itself).</summary>
    /// <param name="text">The text as typed; null is fine (nothing to check).</param>
    /// <param name="allowLineBreaks">Whether line breaks and tabs may stay (notes and descriptions, not names).</param>
    /// <param name="refuseCredentials">Whether a credential's shape is refused; false only for a text that is redacted before
    /// it is kept (an SDK's diagnostics from an imported run).</param>
    public static string? Check(string? text, bool allowLineBreaks = false, bool refuseCredentials = true)
    {
        if (text is null)
        {
            return null;
        }

        foreach (var c in text)
        {
            if (!IsRefused(c) || (allowLineBreaks && c is '\n' or '\r' or '\t'))
            {
                continue;
            }

            var code = CodePoint(c);
            return char.IsControl(c)
                ? $"Contains a control character ({code}): use printable text only{(allowLineBreaks ? " (line breaks are fine)" : "")}."
                : $"Contains a bidirectional-text control ({code}), which makes text display differently from what it is: remove it.";
        }

        // A name is one line that shows what it is: a line or paragraph separator breaks it, and an invisible character
        // (zero-width space, word joiner, byte-order mark, a tag character) makes two names that look alike differ.
        for (var i = 0; !allowLineBreaks && i < text.Length; i++)
        {
            if (text[i] is '\u2028' or '\u2029')
            {
                return $"Contains a line or paragraph separator ({CodePoint(text[i])}): a name is one line.";
            }

            if (text[i] is '\u200B' or '\u2060' or '\uFEFF' or '\u180E' || (text[i] == '\uDB40' && i + 1 < text.Length && text[i + 1] is >= '\uDC00' and <= '\uDC7F'))
            {
                var code = char.IsHighSurrogate(text[i]) ? "U+" + char.ConvertToUtf32(text[i], text[i + 1]).ToString("X5", CultureInfo.InvariantCulture) : CodePoint(text[i]);
                return $"Contains an invisible character ({code}), which makes two names that look alike differ: remove it.";
            }
        }

        // Such text is shown on pages and written to exports: a key pasted into it would be readable by every viewer.
        return refuseCredentials && CredentialRedaction.FindCredential(text) is { } credential ? CredentialMessage(credential) : null;
    }

    /// <summary>Why a text that holds a credential (<see cref="CredentialRedaction.FindCredential"/>) is refused.</summary>
    public static string CredentialMessage(string credential) =>
        $"Looks like it holds a credential ({credential}): this text is shown on pages and in exports. Keep keys as secrets and give only their names.";

    /// <summary><paramref name="text"/> with every refused character written as its code point (<c>\u001B</c>), so that
    /// printing it neither rings, moves the cursor, starts an escape sequence nor reverses what follows.</summary>
    /// <param name="text">Text from anywhere.</param>
    /// <param name="keepLineBreaks">Whether a line feed and a tab stay as they are, and a carriage return when a line feed
    /// follows it (text of several lines); a lone carriage return, which would let a line overwrite itself, never stays.</param>
    public static string Escape(string text, bool keepLineBreaks = false)
    {
        ArgumentNullException.ThrowIfNull(text);
        if (!text.Any(IsRefused))
        {
            return text;
        }

        var escaped = new StringBuilder(text.Length + 16);
        for (var i = 0; i < text.Length; i++)
        {
            var c = text[i];
            var kept = keepLineBreaks && (c is '\n' or '\t' || (c == '\r' && i + 1 < text.Length && text[i + 1] == '\n'));
            escaped.Append(!IsRefused(c) || kept ? c.ToString() : "\\u" + ((int)c).ToString("X4", CultureInfo.InvariantCulture));
        }

        return escaped.ToString();
    }

    private static string CodePoint(char c) => "U+" + ((int)c).ToString("X4", CultureInfo.InvariantCulture);
}
