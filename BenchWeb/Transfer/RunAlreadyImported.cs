using System.Globalization;

namespace BenchWeb.Transfer;

/// <summary>The run an export was imported as before, or the run it was exported from when that is one of this
/// installation's own.</summary>
/// <param name="RunId">Its number here.</param>
/// <param name="ImportedAt">When it was imported.</param>
/// <param name="RanHere">The export is of this installation's own run #<paramref name="RunId"/>.</param>
public sealed record RunAlreadyImported(long RunId, DateTimeOffset? ImportedAt, bool RanHere = false)
{
    /// <summary>"This run was imported already, as run #12 on 2026-11-22 14:05 UTC: a second copy would count it twice…"</summary>
    public string Message => RanHere
        ? string.Create(CultureInfo.InvariantCulture, $"This run ran here: it is run #{RunId}, and a copy would count it twice in lists and comparisons. Open run #{RunId} instead.")
        : string.Create(CultureInfo.InvariantCulture,
            $"This run was imported already, as run #{RunId}{(ImportedAt is { } at ? $" on {at.UtcDateTime:yyyy-MM-dd HH:mm} UTC" : "")}: a second copy would count it twice in lists and comparisons. Open run #{RunId} instead.");
}
