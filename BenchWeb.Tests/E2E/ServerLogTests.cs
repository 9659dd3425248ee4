using System.Net;
using System.Text;
using System.Text.RegularExpressions;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.E2E;

/// <summary>The dashboard's console as `dotnet run` shows it (the Development environment): a run does not repeat a
/// line every second, the keys' protection is said once, in words that say what to do, and a first start warns of nothing
/// else.</summary>
[Collection(DashboardBrowserCollection.Name)]
[IntegrationTest]
[Slow]
public sealed partial class ServerLogTests
{
    [Fact]
    public async Task Log_DuringARun_RepeatsNoLineAndSaysHowKeysAreProtected()
    {
        await using var app = await DashboardProcess.StartAsync(new Dictionary<string, string> { ["ASPNETCORE_ENVIRONMENT"] = "Development" }, port: null);
        using var http = await app.CreateSignedInClientAsync();
        using var request = new HttpRequestMessage(HttpMethod.Post, "api/runs")
        {
            Content = new StringContent("""{"plan":{"name":"quiet log","stop":{"durationSeconds":6}}}""", Encoding.UTF8, "application/json"),
        };
        request.Headers.Add("Origin", app.BaseAddress.GetLeftPart(UriPartial.Authority));
        var started = await http.SendAsync(request);
        Assert.Equal(HttpStatusCode.Accepted, started.StatusCode);
        await Eventually.TrueAsync(async () => (await http.GetStringAsync(started.Headers.Location)).Contains("\"status\": \"Completed\"", StringComparison.Ordinal)
            || (await http.GetStringAsync(started.Headers.Location)).Contains("\"status\":\"Completed\"", StringComparison.Ordinal), TimeSpan.FromSeconds(60), "the run to complete");

        var repeated = Entries(app.Output).Select(e => Digits().Replace(e, "N")).GroupBy(e => e).Where(g => g.Count() >= 4).Select(g => $"{g.Count()}× {g.Key}").ToList();
        Assert.True(repeated.Count == 0, "Repeated log lines:\n" + string.Join("\n", repeated));
        Assert.Contains("The keys that encrypt stored secrets are kept in", app.Output, StringComparison.Ordinal);
        Assert.DoesNotContain("No XML encryptor configured", app.Output, StringComparison.Ordinal);
        // A first start on an empty data folder warns of nothing but the keys (SQLite's table rebuilds are not faults).
        var alarming = Entries(app.Output).Where(e => e.StartsWith("warn:", StringComparison.Ordinal) || e.StartsWith("fail:", StringComparison.Ordinal) || e.StartsWith("crit:", StringComparison.Ordinal))
            .Where(e => !e.Contains("The keys that encrypt stored secrets are kept in", StringComparison.Ordinal)).ToList();
        Assert.True(alarming.Count == 0, "Warnings on a first start:\n" + string.Join("\n", alarming));
    }

    /// <summary>The console logger's entries: a "level: category[id]" line and the indented lines of its message.</summary>
    private static List<string> Entries(string output)
    {
        var entries = new List<string>();
        foreach (var line in output.Split('\n'))
        {
            if (line.StartsWith(' ') && entries.Count > 0)
            {
                entries[^1] += " " + line.Trim();
            }
            else if (line.Trim().Length > 0)
            {
                entries.Add(line.Trim());
            }
        }

        return entries;
    }

    [GeneratedRegex("[0-9]+")]
    private static partial Regex Digits();
}
