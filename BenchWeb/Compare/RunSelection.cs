using System.Globalization;

namespace BenchWeb.Compare;

/// <summary>Run ids as a URL carries them (<c>runs=12,15,18</c>), checked against how many a page takes.</summary>
public sealed record RunSelection
{
    private RunSelection(IReadOnlyList<long> ids, string? error)
    {
        Ids = ids;
        Error = error;
    }

    /// <summary>The ids in the order given (the first is the baseline of a comparison); empty when invalid.</summary>
    public IReadOnlyList<long> Ids { get; }

    /// <summary>Why the text is not a valid selection, in words for the page; null when it is.</summary>
    public string? Error { get; }

    public bool IsValid => Error is null;

    /// <summary>The query value for these ids, e.g. <c>12,15,18</c>.</summary>
    public string Query => string.Join(',', Ids.Select(id => id.ToString(CultureInfo.InvariantCulture)));

    public static RunSelection Parse(string? text, int minimum, int maximum)
    {
        var parts = (text ?? "").Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        var ids = new List<long>();
        foreach (var part in parts)
        {
            if (!long.TryParse(part.TrimStart('#'), NumberStyles.None, CultureInfo.InvariantCulture, out var id) || id <= 0)
            {
                return Invalid($"“{part}” is not a run number. Give run numbers separated by commas, e.g. runs=12,15.");
            }

            if (ids.Contains(id))
            {
                return Invalid($"Run #{id} is listed twice.");
            }

            ids.Add(id);
        }

        var range = minimum == maximum ? $"{minimum}" : $"{minimum} to {maximum}";
        if (ids.Count < minimum)
        {
            return Invalid(ids.Count == 0
                ? $"Choose {range} runs: add them to the address, e.g. ?runs=12,15."
                : $"Choose {range} runs; {ids.Count} {(ids.Count == 1 ? "was" : "were")} given.");
        }

        return ids.Count > maximum ? Invalid($"At most {maximum} runs at a time; {ids.Count} were given.") : new RunSelection(ids, null);
    }

    private static RunSelection Invalid(string error) => new([], error);
}
