using System.Globalization;
using System.Net;
using System.Text.Json.Nodes;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Guard.Audit;
using BenchWeb.Guard.Security;
using BenchWeb.Tests.Support;
using CsvHelper;
using static BenchWeb.Tests.Integration.RunsApiTests;

namespace BenchWeb.Tests.Integration;

/// <summary>The audit log of actions taken through the HTTP API of the real app on a loopback port: who (the token's
/// user), from where (the connection's address), what, and against which endpoint; read back as JSON and CSV.</summary>
[IntegrationTest]
public sealed class AuditApiTests
{
    private const string CosmosHost = "acme.documents.azure.com";
    private static readonly TimeSpan RunTimeout = TimeSpan.FromSeconds(60);

    [Fact]
    public async Task AuditLog_RecordsEachApiActionWithActorAddressAndEndpoint_AndTheCsvExportHoldsThem()
    {
        // The account's key is read from the environment, bound to the account by the installation.
        await using var host = await DashboardHost.StartAsync(ListedSecrets.Settings("COSMOS_KEY", "CosmosSql", "Target.Cosmos.KeySecret", CosmosHost));
        using var runner = await host.CreateClientAsync(BenchWebRoles.Runner);
        using var admin = await host.CreateClientAsync(BenchWebRoles.Admin);

        using var created = await PostJsonAsync(runner, "api/profiles", new { name = "Acme account", plan = CosmosPlan() });
        var profileId = (await ReadAsync(created))["id"]!.GetValue<long>();
        // One run executes at a time: while this one runs, the Cosmos DB run waits in the queue and is cancelled there,
        // so nothing connects to the account.
        var blocker = await StartAsync(runner, new { plan = ShortPlan("blocker", seconds: 60) });
        var cosmosRun = await StartAsync(runner, new { profileId });
        using var cancel = await runner.PostAsync(new Uri($"api/runs/{cosmosRun}/cancel", UriKind.Relative), null);
        Assert.Equal(HttpStatusCode.Accepted, cancel.StatusCode);
        using var pause = await PostJsonAsync(admin, "api/admin/kill-switch", new { reason = "audit test" });
        using var resume = await admin.DeleteAsync(new Uri("api/admin/kill-switch", UriKind.Relative));
        await host.WaitUntilEndedAsync(blocker, RunTimeout);
        using var export = await runner.GetAsync(new Uri($"api/runs/{blocker}/export.json", UriKind.Relative));
        using var imported = await runner.PostAsync(new Uri("api/runs/import", UriKind.Relative), new StringContent(RunExports.FromElsewhere(await export.Content.ReadAsStringAsync()), System.Text.Encoding.UTF8, "application/json"));
        Assert.True(imported.StatusCode == HttpStatusCode.Created, await imported.Content.ReadAsStringAsync());
        var importedId = (await ReadAsync(imported))["id"]!.GetValue<long>();

        var page = await GetJsonAsync(admin, "api/audit?pageSize=100");
        var entries = page["items"]!.AsArray().Select(e => e!).ToList();

        // Newest first.
        Assert.Equal(entries.Select(e => e["id"]!.GetValue<long>()).OrderDescending(), entries.Select(e => e["id"]!.GetValue<long>()));
        var profile = Single(entries, AuditActions.ProfileCreated, $"profile #{profileId} “Acme account”");
        AssertRunner(profile);
        Assert.Equal(CosmosHost, profile["endpoint"]!.GetValue<string>());
        var launched = Single(entries, AuditActions.RunLaunched, $"run #{cosmosRun}");
        AssertRunner(launched);
        Assert.Equal(CosmosHost, launched["endpoint"]!.GetValue<string>());
        // The target by its name, as every page writes it, never its identifier (CosmosSql).
        Assert.StartsWith($"of profile #{profileId} “Acme account”; Cosmos DB (SQL API);", launched["details"]!.GetValue<string>(), StringComparison.Ordinal);
        Assert.DoesNotContain("CosmosSql", launched["details"]!.GetValue<string>(), StringComparison.Ordinal);
        var blockerLaunched = Single(entries, AuditActions.RunLaunched, $"run #{blocker}");
        AssertRunner(blockerLaunched);
        // Its stop rule is the plan's 60 s; the installation's document cap (the plan set no count) is said as a cap.
        Assert.Matches("; stop rule: 60 s; the installation caps it at [0-9,]+ documents$", blockerLaunched["details"]!.GetValue<string>());
        var cancelled = Single(entries, AuditActions.RunCancelled, $"run #{cosmosRun}");
        AssertRunner(cancelled);
        Assert.Equal(CosmosHost, cancelled["endpoint"]!.GetValue<string>());
        var stoppedByAdmin = Single(entries, AuditActions.RunCancelled, $"run #{blocker}");
        AssertActor(stoppedByAdmin, "test Admin", BenchWebRoles.Admin);
        Assert.Contains("by the kill switch: audit test", stoppedByAdmin["details"]!.GetValue<string>(), StringComparison.Ordinal);
        AssertActor(Single(entries, AuditActions.LaunchesPaused, "launching"), "test Admin", BenchWebRoles.Admin);
        AssertActor(Single(entries, AuditActions.LaunchesResumed, "launching"), "test Admin", BenchWebRoles.Admin);
        AssertRunner(Single(entries, AuditActions.RunImported, $"run #{importedId}"));
        Assert.Equal(page["total"]!.GetValue<int>(), entries.Count);

        using var csvResponse = await admin.GetAsync(new Uri("api/audit/export.csv", UriKind.Relative));
        Assert.Equal(HttpStatusCode.OK, csvResponse.StatusCode);
        Assert.Equal("text/csv", csvResponse.Content.Headers.ContentType?.MediaType);
        using var csv = new CsvReader(new StringReader(await csvResponse.Content.ReadAsStringAsync()), CultureInfo.InvariantCulture);
        var rows = csv.GetRecords<dynamic>().Cast<IDictionary<string, object>>().ToList();
        Assert.Equal(AuditLog.CsvColumns, rows[0].Keys);
        Assert.Equal(entries.Select(e => e["id"]!.GetValue<long>().ToString(CultureInfo.InvariantCulture)), rows.Select(r => (string)r["id"]));
        var launchedRow = rows.Single(r => (string)r["action"] == AuditActions.RunLaunched && (string)r["subject"] == $"run #{cosmosRun}");
        Assert.Equal("test Runner", launchedRow["user_name"]);
        Assert.Equal("127.0.0.1", launchedRow["remote_ip"]);
        Assert.Equal(CosmosHost, launchedRow["endpoint"]);
        Assert.StartsWith("API token #", (string)launchedRow["via"], StringComparison.Ordinal);

        var filtered = await GetJsonAsync(admin, "api/audit?action=run.&who=runner");
        Assert.All(filtered["items"]!.AsArray(), e => Assert.StartsWith("run.", e!["action"]!.GetValue<string>(), StringComparison.Ordinal));
        Assert.All(filtered["items"]!.AsArray(), e => Assert.Equal("test Runner", e!["userName"]!.GetValue<string>()));
        Assert.Equal(4, filtered["total"]!.GetValue<int>());
    }

    [Fact]
    public async Task AuditLog_RecordsCsvUploadsFileDeletionsAndRefusedLaunches_FromTheApi()
    {
        await using var host = await DashboardHost.StartAsync();
        using var runner = await host.CreateClientAsync(BenchWebRoles.Runner);
        using var admin = await host.CreateClientAsync(BenchWebRoles.Admin);

        var fileId = await CsvUploads.UploadAsync(runner, CsvUploads.Flights(3), "january.csv");
        using var deleted = await admin.DeleteAsync(new Uri($"api/files/{fileId}", UriKind.Relative));
        Assert.Equal(HttpStatusCode.NoContent, deleted.StatusCode);
        var offTheList = CosmosPlan() with { Target = new TargetOptions { Kind = TargetKind.CosmosSql, Cosmos = new CosmosOptions { Endpoint = "https://cosmos.example.net:443/" } } };
        using var refused = await PostJsonAsync(runner, "api/runs", new { plan = offTheList });
        Assert.Equal(HttpStatusCode.BadRequest, refused.StatusCode);

        var entries = (await GetJsonAsync(admin, "api/audit?pageSize=100"))["items"]!.AsArray().Select(e => e!).ToList();

        var uploaded = Single(entries, AuditActions.FileUploaded, $"file #{fileId} “january.csv”");
        AssertRunner(uploaded);
        Assert.Matches("^[0-9,]+ bytes, 3 rows of [0-9]+ columns, SHA-256 [0-9a-f]{64}$", uploaded["details"]!.GetValue<string>());
        var removed = Single(entries, AuditActions.FileDeleted, $"file #{fileId} “january.csv”");
        AssertActor(removed, "test Admin", BenchWebRoles.Admin);
        Assert.Contains($"uploaded by {UserDirectory.LocalId("test Runner")}", removed["details"]!.GetValue<string>(), StringComparison.Ordinal);
        var refusal = Single(entries, AuditActions.RunRefused, "a run");
        AssertRunner(refusal);
        Assert.Equal("cosmos.example.net", refusal["endpoint"]!.GetValue<string>());
        Assert.Contains("Target.Cosmos.Endpoint: The endpoint host 'cosmos.example.net' is not on this installation's endpoint allow-list", refusal["details"]!.GetValue<string>(), StringComparison.Ordinal);
        Assert.DoesNotContain(entries, e => e["action"]!.GetValue<string>() == AuditActions.RunLaunched);
    }

    [Theory]
    [InlineData(BenchWebRoles.Viewer)]
    [InlineData(BenchWebRoles.Runner)]
    public async Task AuditLog_Returns403_WhenTheCallerIsNotAnAdmin(string role)
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(role);

        using var list = await http.GetAsync(new Uri("api/audit", UriKind.Relative));
        using var csv = await http.GetAsync(new Uri("api/audit/export.csv", UriKind.Relative));
        using var page = await http.GetAsync(new Uri("admin/audit", UriKind.Relative));

        await AssertProblemAsync(list, HttpStatusCode.Forbidden);
        await AssertProblemAsync(csv, HttpStatusCode.Forbidden);
        Assert.Equal(HttpStatusCode.Forbidden, page.StatusCode);
    }

    [Fact]
    public async Task AuditLog_Returns400NamingTheFilter_WhenAFilterIsNotValid()
    {
        await using var host = await DashboardHost.StartAsync();
        using var admin = await host.CreateClientAsync(BenchWebRoles.Admin);

        using var response = await admin.GetAsync(new Uri("api/audit?action=run.exploded&from=yesterday&pageSize=0", UriKind.Relative));

        var problem = await AssertProblemAsync(response, HttpStatusCode.BadRequest);
        Assert.NotNull(problem["errors"]!["action"]);
        Assert.NotNull(problem["errors"]!["from"]);
        Assert.NotNull(problem["errors"]!["pageSize"]);
        using var inverted = await admin.GetAsync(new Uri("api/audit?from=9999-12-31&to=0001-01-01", UriKind.Relative));
        Assert.Contains("before from", (await AssertProblemAsync(inverted, HttpStatusCode.BadRequest))["errors"]!["to"]![0]!.GetValue<string>(), StringComparison.Ordinal);
    }

    private static JsonNode Single(List<JsonNode> entries, string action, string subject) =>
        Assert.Single(entries, e => e["action"]!.GetValue<string>() == action && e["subject"]!.GetValue<string>() == subject);

    private static void AssertRunner(JsonNode entry)
    {
        AssertActor(entry, "test Runner", BenchWebRoles.Runner);
        Assert.Contains("“tests as Runner”", entry["via"]!.GetValue<string>(), StringComparison.Ordinal);
    }

    private static void AssertActor(JsonNode entry, string name, string role)
    {
        Assert.Equal(UserDirectory.LocalId(name), entry["userId"]!.GetValue<string>());
        Assert.Equal(name, entry["userName"]!.GetValue<string>());
        Assert.Equal(role, entry["role"]!.GetValue<string>());
        Assert.StartsWith("API token #", entry["via"]!.GetValue<string>(), StringComparison.Ordinal);
        // The test's client connects from loopback: what the server saw is what it recorded.
        Assert.Equal("127.0.0.1", entry["remoteIp"]!.GetValue<string>());
    }

    private static async Task<long> StartAsync(HttpClient http, object body)
    {
        using var response = await PostJsonAsync(http, "api/runs", body);
        Assert.Equal(HttpStatusCode.Accepted, response.StatusCode);
        return (await ReadAsync(response))["id"]!.GetValue<long>();
    }

    private static RunPlan CosmosPlan() => new()
    {
        Name = "Acme account",
        Target = new TargetOptions { Kind = TargetKind.CosmosSql, Cosmos = new CosmosOptions { Endpoint = $"https://{CosmosHost}:443/", RequestUnits = 4_000 } },
        Stop = new StopOptions { DurationSeconds = 5 },
    };
}
