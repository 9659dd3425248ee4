using System.Net;
using System.Text;
using System.Text.Json.Nodes;
using BenchEngine.Diagnostics;
using BenchEngine.Running;
using BenchWeb.Guard.Security;
using BenchWeb.Tests.Support;
using BenchWeb.Transfer;
using static BenchWeb.Tests.Integration.RunsApiTests;

namespace BenchWeb.Tests.Integration;

/// <summary>A run's slow requests through the real app: saved as the run goes, read at <c>/api/runs/{id}/diagnostics</c> with
/// the other run APIs' sign-in, carried by the JSON export and read back by an import.</summary>
[IntegrationTest]
public sealed class RunDiagnosticsApiTests
{
    [Fact]
    public async Task Diagnostics_ListEachSecondsSlowestRequest_AndSecondNReadsOneSeconds()
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Viewer);
        using var runner = await host.CreateClientAsync(BenchWebRoles.Runner);
        var id = await CompletedRunAsync(runner, ShortPlan("slow requests", seconds: 3));

        var diagnostics = await GetJsonAsync(http, $"api/runs/{id}/diagnostics");

        var entries = diagnostics["entries"]!.AsArray();
        var seconds = await host.SecondsAsync(id);
        Assert.Equal(seconds.Where(s => s.OkRequests > 0).Select(s => s.Index), entries.Select(e => e!["second"]!.GetValue<int>()));
        Assert.All(entries, e =>
        {
            Assert.Equal("Ok", e!["outcome"]!.GetValue<string>());
            Assert.Contains("Simulated", e["text"]!.GetValue<string>(), StringComparison.Ordinal);
            Assert.Equal(seconds.Single(s => s.Index == e["second"]!.GetValue<int>()).LatencyMaxMs!.Value, e["latencyMs"]!.GetValue<double>(), tolerance: 1);
        });
        var one = await GetJsonAsync(http, $"api/runs/{id}/diagnostics?second=1");
        Assert.Equal(1, one["second"]!.GetValue<int>());
        Assert.Equal([1], one["entries"]!.AsArray().Select(e => e!["second"]!.GetValue<int>()));
    }

    [Fact]
    public async Task Diagnostics_OfAMissingRun_Is404_ABadSecondIs400_AndWithoutSignIn401()
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Viewer);
        using var runner = await host.CreateClientAsync(BenchWebRoles.Runner);
        var id = await CompletedRunAsync(runner, ShortPlan("signed in", seconds: 1));

        using var missing = await http.GetAsync("api/runs/424242/diagnostics");
        await AssertProblemAsync(missing, HttpStatusCode.NotFound);
        using var bad = await http.GetAsync($"api/runs/{id}/diagnostics?second=-1");
        var problem = await AssertProblemAsync(bad, HttpStatusCode.BadRequest);
        Assert.NotNull(problem["errors"]!["second"]);
        using var anonymous = new HttpClient { BaseAddress = host.BaseAddress };
        using var unsigned = await anonymous.GetAsync($"api/runs/{id}/diagnostics");
        Assert.Equal(HttpStatusCode.Unauthorized, unsigned.StatusCode);
    }

    [Fact]
    public async Task ExportThenImport_CarriesTheSlowRequests_AndAnOlderDocumentWithoutThemImportsWithNone()
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);
        var plan = ShortPlan("exported", seconds: 2) with { Diagnostics = new DiagnosticsOptions { ThresholdMs = 0, SlowestPerSecond = 2 } };
        var id = await CompletedRunAsync(http, plan);
        var original = (await GetJsonAsync(http, $"api/runs/{id}/diagnostics"))["entries"]!;
        using var exportResponse = await http.GetAsync($"api/runs/{id}/export.json");
        var exported = JsonNode.Parse(await exportResponse.Content.ReadAsStringAsync())!;
        Assert.True(JsonNode.DeepEquals(original, exported["slowRequests"]), "the export's slow requests differ from the API's");
        Assert.InRange(original.AsArray().Count, 2, 3 * DiagnosticsOptions.MaxPerSecond);

        // Imported as another installation would (its own run of another number: this one's own run is refused), and as one
        // written before slow requests were kept.
        exported["runId"] = id + 500;
        foreach (var time in new[] { "queuedAt", "startedAt", "endedAt" })
        {
            exported[time] = DateTimeOffset.Parse(exported[time]!.GetValue<string>(), System.Globalization.CultureInfo.InvariantCulture).AddHours(-1).ToString("O", System.Globalization.CultureInfo.InvariantCulture);
        }

        var older = exported.DeepClone().AsObject();
        older.Remove("slowRequests");
        older["runId"] = id + 1_000;
        // A document from elsewhere whose texts carry a credential: redacted as this installation's own texts are.
        var leaky = exported.DeepClone().AsObject();
        leaky["runId"] = id + 1_500;
        leaky["slowRequests"]![0]!["text"] = "POST /dbs/x/colls/y/docs\nAccountKey=c2VjcmV0LWtleS12YWx1ZQ==;EndpointSuffix=core.windows.net";
        leaky["slowRequests"]![0]!["summary"] = "Authorization: SharedKey acct:c2VjcmV0LWtleS12YWx1ZQ==";
        var importedId = await ImportAsync(http, exported.ToJsonString());
        var olderId = await ImportAsync(http, older.ToJsonString());
        var leakyId = await ImportAsync(http, leaky.ToJsonString());

        Assert.True(JsonNode.DeepEquals(original, (await GetJsonAsync(http, $"api/runs/{importedId}/diagnostics"))["entries"]), "the import changed the slow requests");
        Assert.Empty((await GetJsonAsync(http, $"api/runs/{olderId}/diagnostics"))["entries"]!.AsArray());
        var redacted = (await GetJsonAsync(http, $"api/runs/{leakyId}/diagnostics"))["entries"]!.ToJsonString();
        Assert.DoesNotContain("c2VjcmV0LWtleS12YWx1ZQ", redacted, StringComparison.Ordinal);
        Assert.Contains("[redacted]", redacted, StringComparison.Ordinal);
    }

    [Fact]
    public void Validate_RefusesSlowRequestsOutsideTheRunOrOverTheirBounds_NamingTheEntry()
    {
        var document = new RunExport
        {
            Seconds = [],
            SlowRequests =
            [
                new SlowRequest { Second = 0, LatencyMs = 10, StatusCode = 201, Text = "ok" },
                new SlowRequest { Second = 5, LatencyMs = 10, StatusCode = 201 },
                new SlowRequest { Second = 0, LatencyMs = double.NaN, StatusCode = 201 },
                new SlowRequest { Second = 0, LatencyMs = 10, StatusCode = 201, Text = new string('x', DiagnosticsOptions.MaxTextLength + 1) },
                new SlowRequest { Second = 0, LatencyMs = 10, StatusCode = 201, Summary = "bell\u0007" },
            ],
        };

        var errors = RunTransfer.Validate(document).Where(e => e.Field.StartsWith("SlowRequests", StringComparison.Ordinal)).ToList();

        Assert.Equal(["SlowRequests[1]", "SlowRequests[2]", "SlowRequests[3]", "SlowRequests[4]"], errors.Select(e => e.Field));
    }

    private static async Task<long> CompletedRunAsync(HttpClient http, RunPlan plan)
    {
        using var response = await PostJsonAsync(http, "api/runs", new { plan });
        var run = await WaitUntilEndedAsync(http, (await ReadAsync(response))["id"]!.GetValue<long>());
        Assert.Equal("Completed", run["status"]!.GetValue<string>());
        return run["id"]!.GetValue<long>();
    }

    private static async Task<long> ImportAsync(HttpClient http, string document)
    {
        using var imported = await http.PostAsync("api/runs/import", new StringContent(document, Encoding.UTF8, "application/json"));
        Assert.True(imported.StatusCode == HttpStatusCode.Created, await imported.Content.ReadAsStringAsync());
        return (await ReadAsync(imported))["id"]!.GetValue<long>();
    }
}
