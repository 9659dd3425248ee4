using System.Globalization;
using System.Text.Json;

namespace BenchWeb.Apis;

/// <summary>Where a JSON document stops being what was expected, in plain words: its line and column (counted from 1,
/// as editors do; the reader counts from 0 and in bytes) and the reader's reason without its internal coordinates.</summary>
internal static class JsonErrorText
{
    /// <summary>E.g. "Line 3, column 12 of the document: expected depth to be zero at the end of the JSON payload."</summary>
    public static string Describe(JsonException exception)
    {
        ArgumentNullException.ThrowIfNull(exception);
        var message = exception.Message;
        // The reader appends "Path: $.x | LineNumber: 0 | BytePositionInLine: 12." to its reason: said here in words.
        var cut = message.IndexOf(" Path: ", StringComparison.Ordinal) is >= 0 and var at ? at : message.IndexOf(" LineNumber: ", StringComparison.Ordinal);
        var reason = (cut >= 0 ? message[..cut] : message).Trim();
        if (reason.Length > 0)
        {
            reason = char.ToLowerInvariant(reason[0]) + reason[1..];
        }

        return exception.LineNumber is { } line
            ? string.Create(CultureInfo.InvariantCulture, $"Line {line + 1:N0}, column {(exception.BytePositionInLine ?? 0) + 1:N0} of the document: {reason}")
            : $"The document is not valid: {reason}";
    }
}
