using System.Globalization;
using CsvHelper.Configuration;

namespace BenchWeb.Guard;

/// <summary>How every CSV the dashboard writes is formatted: invariant numbers, and text that a spreadsheet would
/// run as a formula (a profile name such as <c>=HYPERLINK(…)</c> from an imported run) escaped.</summary>
internal static class CsvFormat
{
    public static CsvConfiguration Configuration { get; } = new(CultureInfo.InvariantCulture) { InjectionOptions = InjectionOptions.Escape };
}
