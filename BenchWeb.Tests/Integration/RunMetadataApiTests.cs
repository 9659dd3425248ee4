using System.Globalization;
using System.Net;
using System.Text;
using System.Text.Json.Nodes;
using BenchWeb.Guard.Security;
using BenchWeb.Tests.Support;
using CsvHelper;
using static BenchWeb.Tests.Integration.RunsApiTests;

namespace BenchWeb.Tests.Integration;

/// <summary>Run metadata through the HTTP API of the real app (SQLite file, job scheduler, simulated target): set on
/// <c>POST /api/runs</c>, read back, filtered on, exported and imported by another installation.</summary>
[IntegrationTest]
public sealed class RunMetadataApiTests
{
    private const string Commit = "0123456789abcdef0123456789abcdef01234567";
    private const string Pipeline = "https://github.com/octo-org/bench-app/actions/runs/9876543210";

    [Fact]
    public async Task StartRun_WithMetadata_KeepsItInTheRunTheListTheFilterAndTheExports()
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);
        using var other = await PostJsonAsync(http, "api/runs", new { plan = ShortPlan("without metadata", seconds: 1) });
        var otherId = (await ReadAsync(other))["id"]!.GetValue<long>();

        using var response = await PostJsonAsync(http, "api/runs", new
        {
            plan = ShortPlan("with metadata", seconds: 1),
            metadata = new Dictionary<string, string> { ["commit"] = Commit, ["branch"] = "release/1.2", ["pipeline"] = Pipeline, ["note"] = "<b>as text</b>" },
        });

        Assert.Equal(HttpStatusCode.Accepted, response.StatusCode);
        var accepted = await ReadAsync(response);
        var id = accepted["id"]!.GetValue<long>();
        var expected = new JsonObject { ["commit"] = Commit, ["branch"] = "release/1.2", ["pipeline"] = Pipeline, ["note"] = "<b>as text</b>" };
        Assert.True(JsonNode.DeepEquals(expected, accepted["metadata"]), accepted["metadata"]?.ToJsonString());
        var run = await WaitUntilEndedAsync(http, id);
        await WaitUntilEndedAsync(http, otherId);
        Assert.Equal("Completed", run["status"]!.GetValue<string>());
        Assert.True(JsonNode.DeepEquals(expected, run["metadata"]));

        var all = await GetJsonAsync(http, "api/runs");
        Assert.Equal(2, all["total"]!.GetValue<int>());
        Assert.True(JsonNode.DeepEquals(expected, all["items"]!.AsArray().Single(r => r!["id"]!.GetValue<long>() == id)!["metadata"]));
        Assert.Empty(all["items"]!.AsArray().Single(r => r!["id"]!.GetValue<long>() == otherId)!["metadata"]!.AsObject());
        Assert.Equal([id], await ListedAsync(http, $"meta={Uri.EscapeDataString("commit=" + Commit)}"));
        Assert.Equal([id], await ListedAsync(http, "meta=branch%3Drelease%2F1.2&status=Completed"));
        Assert.Equal([id], await ListedAsync(http, $"meta={Uri.EscapeDataString("note=<b>as text</b>")}"));
        Assert.Empty(await ListedAsync(http, "meta=branch%3Drelease"));
        Assert.Empty(await ListedAsync(http, "meta=Branch%3Drelease%2F1.2"));
        Assert.Empty(await ListedAsync(http, "meta=commit%3D0123"));

        var export = JsonNode.Parse(await TextAsync(http, $"api/runs/{id}/export.json"))!;
        Assert.True(JsonNode.DeepEquals(expected, export["metadata"]));
        using var csv = new CsvReader(new StringReader(await TextAsync(http, $"results.csv?runs={id},{otherId}")), CultureInfo.InvariantCulture);
        var rows = csv.GetRecords<dynamic>().Cast<IDictionary<string, object>>().ToDictionary(r => long.Parse((string)r["Run id"], CultureInfo.InvariantCulture), r => (string)r["Metadata"]);
        Assert.Equal($"commit={Commit}; branch=release/1.2; pipeline={Pipeline}; note=<b>as text</b>", rows[id]);
        Assert.Equal("", rows[otherId]);
    }

    [Fact]
    public async Task StartRun_MetadataOutOfBounds_Returns400NamingEachField_NeverA500_AndQueuesNothing()
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);
        var plan = """{ "name": "refused", "stop": { "durationSeconds": 1 } }""";
        var tooMany = string.Join(", ", Enumerable.Range(1, 21).Select(i => $"\"key{i}\": \"v\""));
        var cases = new (string Metadata, string Field, string Message)[]
        {
            ($$"""{ "commit": "{{new string('a', 201)}}" }""", "Metadata.commit", "At most 200 characters; this value has 201."),
            ("""{ "branch": "main\u202Egnp.exe" }""", "Metadata.branch", "Contains a bidirectional-text control (U+202E)"),
            ("""{ "branch": "main\u0000" }""", "Metadata.branch", "Contains a control character (U+0000)"),
            ("""{ "commit": " 1a2b" }""", "Metadata.commit", "A value cannot begin or end with a space."),
            ("""{ "bell\u0007": "1" }""", "Metadata", "The key of pair 1: Contains a control character (U+0007)"),
            ("""{ "": "1" }""", "Metadata", "Pair 1 has an empty or invisible key"),
            ($$"""{ "{{new string('k', 51)}}": "1" }""", "Metadata", "The key of pair 1 has 51 characters; at most 50."),
            ("""{ "commit": "1", "commit": "2" }""", "Metadata.commit", "Given more than once: each key once."),
            ($$"""{ {{tooMany}} }""", "Metadata", "At most 20 pairs; this has 21."),
            ("""{ "commit": "DefaultEndpointsProtocol=https;AccountName=a;AccountKey=Zm9vYmFyYmF6cXV4;EndpointSuffix=core.windows.net" }""", "Metadata.commit", "Looks like it holds a credential (AccountKey=…)"),
        };

        foreach (var (metadata, field, message) in cases)
        {
            using var response = await http.PostAsync("api/runs", new StringContent($$"""{ "plan": {{plan}}, "metadata": {{metadata}} }""", Encoding.UTF8, "application/json"));

            var problem = await AssertProblemAsync(response, HttpStatusCode.BadRequest);
            var errors = problem["errors"]!.AsObject();
            Assert.True(errors.ContainsKey(field), $"{metadata}: {errors.ToJsonString()}");
            Assert.StartsWith(message, errors[field]![0]!.GetValue<string>(), StringComparison.Ordinal);
        }

        // Not an object of text: the body's own problem, with the place in the document.
        foreach (var metadata in new[] { """{ "build": 812 }""", """["commit=1"]""", "\"commit=1\"", """{ "build": null }""" })
        {
            using var response = await http.PostAsync("api/runs", new StringContent($$"""{ "plan": {{plan}}, "metadata": {{metadata}} }""", Encoding.UTF8, "application/json"));

            var problem = await AssertProblemAsync(response, HttpStatusCode.BadRequest);
            Assert.Contains("$.metadata", problem["errors"]!.ToJsonString(), StringComparison.Ordinal);
            Assert.Contains("metadata", problem["errors"]!.AsObject().Single().Value![0]!.GetValue<string>(), StringComparison.OrdinalIgnoreCase);
        }

        Assert.Equal(0, (await GetJsonAsync(http, "api/runs"))["total"]!.GetValue<int>());
    }

    [Theory]
    [InlineData("commit")]
    [InlineData("=1a2b")]
    public async Task ListRuns_MetaFilterThatIsNotKeyEqualsValue_Returns400NamingMeta(string meta)
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Viewer);

        using var response = await http.GetAsync($"api/runs?meta={Uri.EscapeDataString(meta)}");

        var problem = await AssertProblemAsync(response, HttpStatusCode.BadRequest);
        Assert.Contains("key=value", problem["errors"]!["meta"]![0]!.GetValue<string>(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task ExportThenImport_KeepsTheMetadata_AnOlderExportWithoutItStillImports_AndBadMetadataIsRefused()
    {
        await using var source = await DashboardHost.StartAsync();
        await using var target = await DashboardHost.StartAsync();
        using var sourceHttp = await source.CreateClientAsync(BenchWebRoles.Runner);
        using var targetHttp = await target.CreateClientAsync(BenchWebRoles.Runner);
        using var started = await PostJsonAsync(sourceHttp, "api/runs", new
        {
            plan = ShortPlan("travelling", seconds: 1),
            metadata = new Dictionary<string, string> { ["ci"] = "azure-pipelines", ["commit"] = Commit, ["build"] = "4711" },
        });
        var sourceId = (await ReadAsync(started))["id"]!.GetValue<long>();
        await WaitUntilEndedAsync(sourceHttp, sourceId);
        var exported = JsonNode.Parse(await TextAsync(sourceHttp, $"api/runs/{sourceId}/export.json"))!.AsObject();

        var importedId = await ImportAsync(targetHttp, exported);
        var older = (JsonObject)exported.DeepClone();
        Assert.True(older.Remove("metadata"));
        older["runId"] = sourceId + 1_000;
        var olderId = await ImportAsync(targetHttp, older);
        var damaged = (JsonObject)exported.DeepClone();
        damaged["runId"] = sourceId + 2_000;
        damaged["metadata"] = new JsonObject { ["commit"] = "1a2b\u001b[2J", ["build"] = new string('9', 201) };
        using var refused = await targetHttp.PostAsync("api/runs/import", new StringContent(damaged.ToJsonString(), Encoding.UTF8, "application/json"));

        var copy = await GetJsonAsync(targetHttp, $"api/runs/{importedId}");
        Assert.True(JsonNode.DeepEquals(exported["metadata"], copy["metadata"]), copy["metadata"]?.ToJsonString());
        Assert.Equal("4711", copy["metadata"]!["build"]!.GetValue<string>());
        var reExported = JsonNode.Parse(await TextAsync(targetHttp, $"api/runs/{importedId}/export.json"))!;
        Assert.True(JsonNode.DeepEquals(exported["metadata"], reExported["metadata"]));
        Assert.Equal([importedId], await ListedAsync(targetHttp, "meta=build%3D4711"));
        Assert.Empty((await GetJsonAsync(targetHttp, $"api/runs/{olderId}"))["metadata"]!.AsObject());
        var problem = await AssertProblemAsync(refused, HttpStatusCode.BadRequest);
        Assert.StartsWith("Contains a control character (U+001B)", problem["errors"]!["Metadata.commit"]![0]!.GetValue<string>(), StringComparison.Ordinal);
        Assert.StartsWith("At most 200 characters", problem["errors"]!["Metadata.build"]![0]!.GetValue<string>(), StringComparison.Ordinal);
        Assert.Equal(2, (await GetJsonAsync(targetHttp, "api/runs"))["total"]!.GetValue<int>());
    }

    [Fact]
    public async Task OpenApiDocument_DescribesMetadataAsAnObjectOfBoundedText()
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Viewer);

        var document = await GetJsonAsync(http, "openapi/v1.json");

        var schemas = document["components"]!["schemas"]!;
        foreach (var holder in new[] { "StartRunRequest", "RunDetails", "RunListItem", "RunExport" })
        {
            var metadata = schemas[holder]!["properties"]!["metadata"]!;
            if (metadata["$ref"] is { } reference)
            {
                metadata = schemas[reference.GetValue<string>().Split('/')[^1]]!;
            }

            Assert.True(metadata["type"]!.GetValue<string>() == "object", $"{holder}.metadata: {metadata.ToJsonString()}");
            Assert.Equal(20, metadata["maxProperties"]!.GetValue<int>());
            Assert.Equal("string", metadata["additionalProperties"]!["type"]!.GetValue<string>());
            Assert.Equal(200, metadata["additionalProperties"]!["maxLength"]!.GetValue<int>());
            Assert.Equal(50, metadata["propertyNames"]!["maxLength"]!.GetValue<int>());
        }

        Assert.Contains("meta=key=value", document["paths"]!["/api/runs"]!["get"]!["description"]!.GetValue<string>(), StringComparison.Ordinal);
    }

    private static async Task<long> ImportAsync(HttpClient http, JsonObject document)
    {
        using var response = await http.PostAsync("api/runs/import", new StringContent(document.ToJsonString(), Encoding.UTF8, "application/json"));
        Assert.True(response.StatusCode == HttpStatusCode.Created, await response.Content.ReadAsStringAsync());
        return (await ReadAsync(response))["id"]!.GetValue<long>();
    }

    private static async Task<long[]> ListedAsync(HttpClient http, string query) =>
        [.. (await GetJsonAsync(http, $"api/runs?{query}"))["items"]!.AsArray().Select(r => r!["id"]!.GetValue<long>())];

    private static async Task<string> TextAsync(HttpClient http, string path)
    {
        using var response = await http.GetAsync(new Uri(path, UriKind.Relative));
        var text = await response.Content.ReadAsStringAsync();
        Assert.True(response.IsSuccessStatusCode, $"GET {path}: {(int)response.StatusCode} {text}");
        return text;
    }
}
