using System.Globalization;

namespace BenchWeb.Transfer;

/// <summary>The run an export was imported as before.</summary>
/// <param name="RunId">Its number here.</param>
/// <param name="ImportedAt">When it was imported.</param>
public sealed record RunAlreadyImported(long RunId, DateTimeOffset? ImportedAt)
{
    /// <summary>"This run was imported already, as run #12 on 2026-11-22 14:05 UTC: a second copy would count it twice…"</summary>
    public string Message => string.Create(CultureInfo.InvariantCulture,
        $"This run was imported already, as run #{RunId}{(ImportedAt is { } at ? $" on {at.UtcDateTime:yyyy-MM-dd HH:mm} UTC" : "")}: a second copy would count it twice in lists and comparisons. Open run #{RunId} instead.");
}
