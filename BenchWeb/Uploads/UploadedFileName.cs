using System.Text;
using BenchWeb.Data;

namespace BenchWeb.Uploads;

/// <summary>What is shown of a client's file name: its last segment, without control characters or characters file
/// systems treat specially, at most <see cref="UploadedFileEntity.MaxDisplayNameLength"/> characters. It names the
/// upload in lists and never becomes a path.</summary>
public static class UploadedFileName
{
    public const string Default = "upload.csv";

    public static string Sanitise(string? clientName)
    {
        // Browsers send a bare name, but a client may send "C:\data\x.csv" or "../../x.csv".
        var name = (clientName ?? "").Replace('\\', '/');
        name = name[(name.LastIndexOf('/') + 1)..];
        var clean = new StringBuilder(name.Length);
        for (var i = 0; i < name.Length; i++)
        {
            var c = name[i];
            if (char.IsHighSurrogate(c) && i + 1 < name.Length && char.IsLowSurrogate(name[i + 1]))
            {
                clean.Append(c).Append(name[++i]);
                continue;
            }

            // A lone surrogate is no character at all (and would make normalising throw).
            if (char.IsSurrogate(c) || char.IsControl(c) || char.GetUnicodeCategory(c) is System.Globalization.UnicodeCategory.Format
                || c is '<' or '>' or ':' or '"' or '|' or '?' or '*')
            {
                continue;
            }

            clean.Append(char.IsWhiteSpace(c) ? ' ' : c);
        }

        var text = string.Join(' ', clean.ToString().Normalize(NormalizationForm.FormC).Split(' ', StringSplitOptions.RemoveEmptyEntries)).Trim('.', ' ');
        if (text.Length > UploadedFileEntity.MaxDisplayNameLength)
        {
            // Keeps the extension, which says what the file is.
            var extension = Path.GetExtension(text);
            extension = extension.Length <= 10 ? extension : "";
            var keep = UploadedFileEntity.MaxDisplayNameLength - extension.Length;
            if (char.IsHighSurrogate(text[keep - 1]))
            {
                keep--;
            }

            text = text[..keep].TrimEnd() + extension;
        }

        return text.Length == 0 ? Default : text;
    }
}
