using System.Globalization;
using System.Text.Json.Nodes;

namespace BenchWeb.Tests.Support;

/// <summary>Exports as another installation would send them: an installation refuses its own runs back (they are here already),
/// so a test that imports what it exported gives the run another installation's number and start.</summary>
internal static class RunExports
{
    /// <summary>The exported run as another installation's: its number moved by 1,000 and its times an hour earlier.</summary>
    public static string FromElsewhere(string exportJson)
    {
        var document = JsonNode.Parse(exportJson)!;
        if (document["runId"] is { } runId)
        {
            document["runId"] = runId.GetValue<long>() + 1_000;
        }

        foreach (var time in new[] { "queuedAt", "startedAt", "endedAt" })
        {
            if (document[time] is { } value)
            {
                document[time] = DateTimeOffset.Parse(value.GetValue<string>(), CultureInfo.InvariantCulture).AddHours(-1).ToString("O", CultureInfo.InvariantCulture);
            }
        }

        return document.ToJsonString();
    }
}
