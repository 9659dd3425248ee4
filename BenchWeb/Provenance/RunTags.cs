namespace BenchWeb.Provenance;

/// <summary>Run tags as typed ("gateway, 2 cores") and as stored (<c>,gateway,2 cores,</c>: lower case, trimmed,
/// unique, comma-delimited at both ends so that a filter on one tag looks for <c>,tag,</c> and never matches a longer tag).</summary>
public static class RunTags
{
    public const int MaxTags = 20;
    public const int MaxTagLength = 50;

    public static string? Normalize(string? typed)
    {
        var tags = Parse(typed?.Replace(';', ','));
        return tags.Count == 0 ? null : "," + string.Join(',', tags) + ",";
    }

    public static IReadOnlyList<string> Parse(string? stored) =>
        (stored ?? "").Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
            .Select(t => t.ToLowerInvariant())
            .Distinct(StringComparer.Ordinal)
            .ToList();
}
