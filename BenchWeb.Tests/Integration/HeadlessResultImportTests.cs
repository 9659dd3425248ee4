using System.Globalization;
using System.Net;
using System.Text;
using System.Text.Json.Nodes;
using BenchEngine.Running;
using BenchWeb.Compare;
using BenchWeb.Data;
using BenchWeb.Guard.Security;
using BenchWeb.Headless;
using BenchWeb.Tests.Support;
using BenchWeb.Transfer;
using CsvHelper;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using static BenchWeb.Tests.Integration.RunsApiTests;

namespace BenchWeb.Tests.Integration;

/// <summary>The headless command's result file is a dashboard's run export: a dashboard imports it unchanged and shows
/// and compares it like the runs it launched itself. Slow: its fixture makes two simulated runs and starts a dashboard.</summary>
[IntegrationTest]
[Slow]
public sealed class HeadlessResultImportTests(HeadlessResultImportTests.Runs runs) : IClassFixture<HeadlessResultImportTests.Runs>
{
    [Fact]
    public async Task HeadlessResultFile_ImportsUnchanged_AndComparesBesideADashboardRun_AndASecondImportIsRefused()
    {
        using var http = await runs.Host.CreateClientAsync(BenchWebRoles.Runner);
        var file = JsonNode.Parse(runs.HeadlessFile)!;

        using var imported = await http.PostAsync("api/runs/import", new StringContent(runs.HeadlessFile, Encoding.UTF8, "application/json"));

        Assert.True(imported.StatusCode == HttpStatusCode.Created, await imported.Content.ReadAsStringAsync());
        var importedId = (await ReadAsync(imported))["id"]!.GetValue<long>();
        var run = await GetJsonAsync(http, $"api/runs/{importedId}");
        Assert.Equal("Completed", run["status"]!.GetValue<string>());
        Assert.NotNull(run["importedAt"]);
        Assert.StartsWith($"{Environment.MachineName}, a headless run, written ", run["importedFrom"]!.GetValue<string>(), StringComparison.Ordinal);
        foreach (var part in new[] { "summary", "plan", "verdict", "environment" })
        {
            // The API writes absent values as null; the file leaves them out.
            Assert.True(JsonNode.DeepEquals(WithoutNulls(file[part]), WithoutNulls(run[part])), $"{part}: {file[part]}\n≠\n{run[part]}");
        }

        Assert.Equal(file["seconds"]!.AsArray().Count, run["secondsRecorded"]!.GetValue<int>());

        var listed = (await GetJsonAsync(http, "api/runs"))["items"]!.AsArray();
        var item = listed.Single(r => r!["id"]!.GetValue<long>() == importedId)!;
        Assert.Equal(file["summary"]!["averageThroughput"]!.GetValue<double>(), item["averageThroughput"]!.GetValue<double>());
        Assert.NotNull(item["importedAt"]);
        Assert.Contains(listed, r => r!["id"]!.GetValue<long>() == runs.DashboardRunId);

        // Side by side with the run the dashboard launched: every figure of both, and both series.
        await using (var db = await runs.Host.Services.GetRequiredService<IDbContextFactory<BenchDbContext>>().CreateDbContextAsync())
        {
            var comparison = await RunComparison.LoadAsync(db, [runs.DashboardRunId, importedId], includeSeconds: true, CancellationToken.None);
            Assert.Null(comparison.MissingMessage);
            foreach (var key in new[] { "avg-throughput", "inserted", "latency-p50", "latency-p99", "ru-per-second" })
            {
                var row = comparison.Rows.Single(r => r.Key == key);
                Assert.All(row.Values, value => Assert.True(value > 0, $"{key}: {string.Join(", ", row.Values)}"));
            }

            Assert.Equal(file["summary"]!["totalOk"]!.GetValue<long>(), comparison.Rows.Single(r => r.Key == "inserted").Values[1]);
            Assert.All(comparison.Series(), series => Assert.NotEmpty(series.Inserts));
        }

        using var csvResponse = await http.GetAsync($"compare.csv?runs={runs.DashboardRunId},{importedId}");
        Assert.Equal(HttpStatusCode.OK, csvResponse.StatusCode);
        using var csv = new CsvReader(new StringReader(await csvResponse.Content.ReadAsStringAsync()), CultureInfo.InvariantCulture);
        var csvRuns = csv.GetRecords<dynamic>().Cast<IDictionary<string, object>>().Select(r => long.Parse((string)r["RunId"], CultureInfo.InvariantCulture)).ToHashSet();
        Assert.Equal([runs.DashboardRunId, importedId], csvRuns.Order());

        // The same file again: the same run, refused as imports of dashboard exports are.
        using var again = await http.PostAsync("api/runs/import", new StringContent(runs.HeadlessFile, Encoding.UTF8, "application/json"));
        var problem = await AssertProblemAsync(again, HttpStatusCode.Conflict);
        Assert.Contains($"imported already, as run #{importedId}", problem["detail"]!.GetValue<string>(), StringComparison.Ordinal);
        Assert.Equal(importedId, problem["runId"]!.GetValue<long>());
    }

    [Fact]
    public async Task HeadlessResultFile_HasTheSamePropertiesAsTheDashboardsExportOfTheSameRun()
    {
        using var http = await runs.Host.CreateClientAsync(BenchWebRoles.Viewer);
        using var response = await http.GetAsync($"api/runs/{runs.DashboardRunId}/export.json");
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var export = JsonNode.Parse(await response.Content.ReadAsStringAsync())!;
        var file = JsonNode.Parse(runs.HeadlessFile)!;

        AssertSameProperties("the document", export, file);
        foreach (var part in new[] { "plan", "environment", "summary", "verdict" })
        {
            AssertSameProperties(part, export[part]!, file[part]!);
        }

        AssertSameProperties("summary.latency", export["summary"]!["latency"]!, file["summary"]!["latency"]!);
        AssertSameProperties("a second", export["seconds"]![0]!, file["seconds"]![0]!);
        Assert.Null(file["runId"]);
        Assert.True(file.AsObject().ContainsKey("runId"), "a headless result says it has no run number");
        Assert.Equal(RunExport.CurrentFormatVersion, file["formatVersion"]!.GetValue<int>());
    }

    [Theory]
    [InlineData("cut short")]
    [InlineData("run number as text")]
    [InlineData("seconds as an object")]
    public async Task Import_BrokenHeadlessResultFile_Returns400InPlainWords(string damage)
    {
        using var http = await runs.Host.CreateClientAsync(BenchWebRoles.Runner);
        var text = damage switch
        {
            "cut short" => runs.HeadlessFile[..(runs.HeadlessFile.Length / 2)],
            "run number as text" => runs.HeadlessFile.Replace("\"runId\": null", "\"runId\": \"none\"", StringComparison.Ordinal),
            "seconds as an object" => runs.HeadlessFile.Replace("\"seconds\": [", "\"seconds\": { \"a\": [", StringComparison.Ordinal),
            _ => throw new ArgumentOutOfRangeException(nameof(damage)),
        };
        Assert.NotEqual(runs.HeadlessFile, text);
        var before = (await GetJsonAsync(http, "api/runs"))["total"]!.GetValue<int>();

        using var response = await http.PostAsync("api/runs/import", new StringContent(text, Encoding.UTF8, "application/json"));

        var problem = await AssertProblemAsync(response, HttpStatusCode.BadRequest);
        var body = problem.ToJsonString();
        foreach (var typeName in new[] { "System.", "Int64", "BenchWeb.", "RunExport" })
        {
            Assert.DoesNotContain(typeName, body, StringComparison.Ordinal);
        }

        Assert.Equal(before, (await GetJsonAsync(http, "api/runs"))["total"]!.GetValue<int>());
    }

    private static JsonNode? WithoutNulls(JsonNode? node) => node switch
    {
        JsonObject o => new JsonObject(o.Where(p => p.Value is not null).Select(p => KeyValuePair.Create(p.Key, WithoutNulls(p.Value)))),
        JsonArray a => new JsonArray([.. a.Select(WithoutNulls)]),
        _ => node?.DeepClone(),
    };

    private static void AssertSameProperties(string what, JsonNode expected, JsonNode actual)
    {
        var dashboard = expected.AsObject().Select(p => p.Key).Order(StringComparer.Ordinal).ToList();
        var headless = actual.AsObject().Select(p => p.Key).Order(StringComparer.Ordinal).ToList();
        Assert.True(dashboard.SequenceEqual(headless),
            $"{what}: only in the dashboard's export: {string.Join(", ", dashboard.Except(headless))}; only in the headless file: {string.Join(", ", headless.Except(dashboard))}");
    }

    /// <summary>One short simulated run made by the headless command, and the same plan run by a dashboard.</summary>
    public sealed class Runs : IAsyncLifetime
    {
        private readonly string _directory = Directory.CreateTempSubdirectory("benchweb-headless-import-").FullName;

        public DashboardHost Host { get; private set; } = null!;

        /// <summary>The headless command's result file, as it wrote it.</summary>
        public string HeadlessFile { get; private set; } = "";

        public long DashboardRunId { get; private set; }

        public async Task InitializeAsync()
        {
            // Thresholds, so that both carry a verdict.
            var plan = ShortPlan("headless and dashboard", seconds: 2) with { Thresholds = new ThresholdOptions { MinThroughput = 1 } };
            var profile = Path.Combine(_directory, "profile.json");
            var result = Path.Combine(_directory, "profile.result.json");
            await File.WriteAllTextAsync(profile, plan.ToJson());
            using var output = new StringWriter();
            var code = await HeadlessCommand.RunAsync([profile, "--summary", result], output, output, CancellationToken.None);
            Assert.True(code == HeadlessCommand.ExitCompleted, output.ToString());
            HeadlessFile = await File.ReadAllTextAsync(result);

            Host = await DashboardHost.StartAsync();
            using var http = await Host.CreateClientAsync(BenchWebRoles.Runner);
            using var started = await PostJsonAsync(http, "api/runs", new { plan });
            var run = await WaitUntilEndedAsync(http, (await ReadAsync(started))["id"]!.GetValue<long>());
            Assert.Equal("Completed", run["status"]!.GetValue<string>());
            DashboardRunId = run["id"]!.GetValue<long>();
        }

        public async Task DisposeAsync()
        {
            if (Host is not null)
            {
                await Host.DisposeAsync();
            }

            Directory.Delete(_directory, recursive: true);
        }
    }
}
