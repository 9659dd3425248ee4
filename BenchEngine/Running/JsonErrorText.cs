using System.Globalization;
using System.Text.Json;
using System.Text.RegularExpressions;

namespace BenchEngine.Running;

/// <summary>Where a JSON document stops being what was expected, in plain words: its line and column (counted from 1,
/// as editors do; the reader counts from 0 and in bytes) and the reader's reason without its internal coordinates.</summary>
public static partial class JsonErrorText
{
    /// <summary>E.g. "Line 3, column 12 of the document: expected depth to be zero at the end of the JSON payload."</summary>
    public static string Describe(JsonException exception)
    {
        ArgumentNullException.ThrowIfNull(exception);
        var message = exception.Message;
        // The reader appends "Path: $.x | LineNumber: 0 | BytePositionInLine: 12." to its reason: said here in words.
        var cut = message.IndexOf(" Path: ", StringComparison.Ordinal) is >= 0 and var at ? at : message.IndexOf(" LineNumber: ", StringComparison.Ordinal);
        var reason = (cut >= 0 ? message[..cut] : message).Trim();
        if (IsEmpty(exception))
        {
            reason = "the document is empty: there is no JSON value in it.";
        }

        reason = ConvertedTo().Replace(reason, match => "the value is not " + KindOf(match.Groups["type"].Value) + ".");
        reason = UnknownProperty().Replace(reason, match => $"there is no property '{match.Groups["name"].Value}' here.");
        reason = NullNotAllowed().Replace(reason, match => $"'{Camel(match.Groups["name"].Value)}' cannot be null: leave it out for its default, or give it a value.");
        reason = Duplicate().Replace(reason, match => $"'{match.Groups["name"].Value}' is given twice: give each property once.");
        if (reason.Length > 0)
        {
            reason = char.ToLowerInvariant(reason[0]) + reason[1..];
        }

        return exception.LineNumber is { } line
            ? string.Create(CultureInfo.InvariantCulture, $"Line {line + 1:N0}, column {(exception.BytePositionInLine ?? 0) + 1:N0} of the document: {reason}")
            : $"The document is not valid: {reason}";
    }

    /// <summary>Whether the reader found no JSON at all: an empty document, or one of white space only.</summary>
    public static bool IsEmpty(JsonException exception)
    {
        ArgumentNullException.ThrowIfNull(exception);
        return exception.Message.StartsWith("The input does not contain any JSON tokens.", StringComparison.Ordinal);
    }

    // "The JSON value could not be converted to System.Nullable`1[System.Double]." names a .NET type; a reader of the
    // API wants the kind of value the field takes: for a choice, its names, as the plan's own rules list them.
    private static string KindOf(string type)
    {
        var inner = NullableOf().Match(type) is { Success: true } nullable ? nullable.Groups["inner"].Value : type;
        if (EnumNamed(inner) is { } choice)
        {
            return $"one of {string.Join(", ", Enum.GetNames(choice))}";
        }

        return inner switch
        {
            "System.Double" or "System.Single" or "System.Decimal" => "a number",
            // Said with its range: 2147483648 is a whole number, but not one this setting holds; nor is 1e9 written as one.
            "System.Int32" => "a whole number from −2,147,483,648 to 2,147,483,647, written in digits (1000000000, not 1e9)",
            "System.Int64" => "a whole number from −9,223,372,036,854,775,808 to 9,223,372,036,854,775,807, written in digits (1000000000, not 1e9)",
            "System.Int16" => "a whole number from −32,768 to 32,767, written in digits",
            "System.Byte" => "a whole number from 0 to 255, written in digits",
            "System.UInt32" => "a whole number from 0 to 4,294,967,295, written in digits",
            "System.UInt64" => "a whole number from 0 to 18,446,744,073,709,551,615, written in digits",
            "System.Boolean" => "true or false",
            "System.String" => "a text",
            "System.DateTimeOffset" or "System.DateTime" => "a date and time (e.g. 2026-03-01T14:00:00Z)",
            "System.TimeSpan" => "a duration (e.g. 00:00:30)",
            _ when inner.StartsWith("System.Collections.", StringComparison.Ordinal) => "a list or object of the expected shape",
            "BenchEngine.Running.RunPlan" => "a plan (a JSON object of its settings)",
            _ => "of the expected kind",
        };
    }

    // The enum the reader names by its full name, from whichever loaded assembly declares it (the engine's, the dashboard's).
    private static Type? EnumNamed(string fullName) =>
        AppDomain.CurrentDomain.GetAssemblies().Select(a => a.GetType(fullName, throwOnError: false)).FirstOrDefault(t => t is { IsEnum: true });

    [GeneratedRegex(@"The JSON value could not be converted to (?<type>\S+?)\.?$", RegexOptions.None, 1000)]
    private static partial Regex ConvertedTo();

    // "The JSON property 'run' could not be mapped to any .NET member contained in type 'BenchWeb.Transfer.RunExport'." names
    // a .NET type too: the property's name is what the reader needs.
    [GeneratedRegex(@"The JSON property '(?<name>[^']*)' could not be mapped to any \.NET member contained in type '[^']*'\.?", RegexOptions.None, 1000)]
    private static partial Regex UnknownProperty();

    [GeneratedRegex(@"^System\.Nullable`1\[(?<inner>[^\]]+)\]$", RegexOptions.None, 1000)]
    private static partial Regex NullableOf();

    // "The property or field 'stop' on type 'BenchEngine.Running.RunPlan' doesn't allow setting null values. Consider updating its
    // nullability annotation." advises the program's author; the reader of a document needs the property's name.
    [GeneratedRegex(@"The property or field '(?<name>[^']*)' on type '[^']*' doesn't allow setting null values\..*$", RegexOptions.None, 1000)]
    private static partial Regex NullNotAllowed();

    // "Duplicate property 'stop' encountered during deserialization of type 'BenchEngine.Running.RunPlan'."
    [GeneratedRegex(@"Duplicate property '(?<name>[^']*)' encountered during deserialization(?: of type '[^']*')?\.?", RegexOptions.None, 1000)]
    private static partial Regex Duplicate();

    private static string Camel(string name) => name.Length > 0 ? char.ToLowerInvariant(name[0]) + name[1..] : name;
}
