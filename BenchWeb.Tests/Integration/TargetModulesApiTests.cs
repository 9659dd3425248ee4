using System.Net;
using System.Text;
using System.Text.Json.Nodes;
using BenchWeb.Guard.Security;
using BenchWeb.Tests.Support;
using static BenchWeb.Tests.Integration.RunsApiTests;

namespace BenchWeb.Tests.Integration;

/// <summary>Hostile plans for the targets added as modules, through the real app's API: each is refused before anything is
/// queued, with a message on the setting at fault that quotes no file of the server and no .NET type.</summary>
[IntegrationTest]
public sealed class TargetModulesApiTests
{
    public static TheoryData<string, string, string> HostilePlans() => new()
    {
        { """{ "kind": "../../etc/passwd" }""", "Target.Kind", "Not one of Simulated, CosmosSql" },
        { """{ "kind": "Redis", "redis": { "host": "169.254.169.254" } }""", "Target.Redis.Host", "169.254.169.254" },
        { """{ "kind": "Redis", "redis": { "host": "cache.example.com", "useTls": false } }""", "Target.Redis.UseTls", "" },
        { """{ "kind": "Redis", "redis": { "host": "x.redis.cache.windows.net", "port": 99999 } }""", "Target.Redis.Port", "" },
        { """{ "kind": "Redis", "redis": { "host": "x.redis.cache.windows.net", "database": -1 } }""", "Target.Redis.Database", "" },
        { $$"""{ "kind": "Redis", "redis": { "host": "x.redis.cache.windows.net", "keyPrefix": "{{new string('k', 5_000)}}" } }""", "Target.Redis.KeyPrefix", "" },
        { """{ "kind": "Redis", "redis": { "host": "[cache.example.com]" } }""", "Target.Redis.Host", "A host name or IP address" },
        { """{ "kind": "Redis", "redis": { "host": "cache.example.com]" } }""", "Target.Redis.Host", "A host name or IP address" },
        { """{ "kind": "BlobStorage", "blobs": { "containerName": "../etc" } }""", "Target.Blobs.ContainerName", "" },
        { """{ "kind": "BlobStorage", "blobs": { "connectionStringSecret": "" } }""", "Target.Blobs.ConnectionStringSecret", "Name the secret" },
        { """{ "kind": "QueueStorage", "queues": { "queueName": "Q--x" } }""", "Target.Queues.QueueName", "" },
        { """{ "kind": "BlobStorage", "blobs": { "connectionStringSecret": "/etc/passwd" } }""", "Target.Blobs.ConnectionStringSecret", "never the value itself" },
        { """{ "kind": "BlobStorage", "blobs": { "connectionStringSecret": "MY_BLOBS" } }""", "Target.Blobs.ConnectionStringSecret", "name an environment variable listed for Blob Storage's connection string (Target.Blobs.ConnectionStringSecret): BLOBS_CONNECTION_STRING." },
        { """{ "kind": "CosmosSql", "cosmos": { "endpoint": "https://acme.documents.azure.com:443/", "keySecret": "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==" } }""", "Target.Cosmos.KeySecret", "never the value itself" },
        { """{ "kind": "Redis", "redis": { "host": "x.redis.cache.windows.net", "accessKeySecret": "COSMOS_KEY" } }""", "Target.Redis.AccessKeySecret", "listed for Azure Cache for Redis's access key (Target.Redis.AccessKeySecret); this installation lists none." },
        { """{ "kind": "Redis", "redis": { "host": "x.redis.cache.windows.net", "accessKeySecret": "REDIS_ACCESS_KEY" } }""", "Target.Redis.AccessKeySecret", "The environment secret REDIS_ACCESS_KEY is bound to no server" },
        { """{ "kind": "Redis", "redis": { "host": "" } }""", "Target.Redis.Host", "Give the cache's host name" },
        { """{ "kind": "Redis", "redis": { "host": "x.redis.cache.windows.net", "connectTimeoutMs": -5 } }""", "Target.Redis.ConnectTimeoutMs", "Between 100 and 60,000" },
    };

    [Fact]
    public async Task CreateProfile_WithEverySection_StoresAndAnswersTheChosenKindsSectionOnly()
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);
        using var body = new StringContent("""
            { "name": "every section", "plan": { "name": "every section",
              "target": { "kind": "Simulated", "operation": "Upsert", "simulator": { "provisionedRequestUnits": 20000 },
                          "cosmos": { "connectionMode": "Gateway" }, "tables": { "tableName": "flights" }, "redis": { "port": 6379 } },
              "stop": { "durationSeconds": 5 } } }
            """, Encoding.UTF8, "application/json");

        using var created = await http.PostAsync(new Uri("api/profiles", UriKind.Relative), body);

        Assert.Equal(HttpStatusCode.Created, created.StatusCode);
        var id = (await ReadAsync(created))["id"]!.GetValue<long>();
        var target = (await GetJsonAsync(http, $"api/profiles/{id}"))["plan"]!["target"]!.AsObject();
        Assert.Equal(["kind", "operation", "simulator"], target.Select(p => p.Key));
        Assert.Equal((20_000, "Upsert"), (target["simulator"]!["provisionedRequestUnits"]!.GetValue<int>(), target["operation"]!.GetValue<string>()));
    }

    [Theory]
    [InlineData("""{ "kind": "Redis", "redis": { "host": "x.redis.cache.windows.net", "accessKeySecret": "RUNNERPASTEDKEYabc123==" } }""", "Target.Redis.AccessKeySecret")]
    [InlineData("""{ "kind": "CosmosSql", "cosmos": { "endpoint": "https://acme.documents.azure.com:443/", "keySecret": "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==" } }""", "Target.Cosmos.KeySecret")]
    [InlineData("""{ "kind": "TableStorage", "tables": { "connectionStringSecret": "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=c2VjcmV0;EndpointSuffix=core.windows.net" } }""", "Target.Tables.ConnectionStringSecret")]
    public async Task CreateProfile_WithAKeyPastedAsTheSecretsName_IsRefused_AndNoViewerCanReadIt(string target, string field)
    {
        await using var host = await DashboardHost.StartAsync();
        using var runner = await host.CreateClientAsync(BenchWebRoles.Runner);
        using var viewer = await host.CreateClientAsync(BenchWebRoles.Viewer);
        using var body = new StringContent($$"""{ "name": "pasted", "plan": { "name": "pasted", "target": {{target}}, "stop": { "durationSeconds": 5 } } }""", Encoding.UTF8, "application/json");

        using var created = await runner.PostAsync(new Uri("api/profiles", UriKind.Relative), body);

        var problem = await AssertProblemAsync(created, HttpStatusCode.BadRequest);
        Assert.Contains(problem["errors"]![field]!.AsArray(), m => m!.GetValue<string>().Contains("never the value itself", StringComparison.Ordinal));
        var value = JsonNode.Parse(target)!.AsObject().Single(p => p.Key != "kind").Value!.AsObject().Single(p => p.Key.EndsWith("Secret", StringComparison.Ordinal)).Value!.GetValue<string>();
        Assert.DoesNotContain(value, problem.ToJsonString(), StringComparison.Ordinal);
        Assert.Empty((await GetJsonAsync(viewer, "api/profiles")).AsArray());
    }

    [Theory]
    [MemberData(nameof(HostilePlans))]
    public async Task StartRun_RefusesAHostileTargetSetting_OnThatSetting_AndQueuesNothing(string target, string field, string expected)
    {
        await using var host = await DashboardHost.StartAsync(new Dictionary<string, string?> { ["BenchWeb:Security:AllowLoopbackEndpoints"] = "false" });
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);
        using var body = new StringContent($$"""{ "plan": { "name": "hostile", "target": {{target}}, "stop": { "durationSeconds": 5 } } }""", Encoding.UTF8, "application/json");

        using var response = await http.PostAsync(new Uri("api/runs", UriKind.Relative), body);

        var problem = await AssertProblemAsync(response, HttpStatusCode.BadRequest);
        var messages = problem["errors"]?[field]?.AsArray().Select(m => m!.GetValue<string>()).ToList();
        Assert.True(messages is { Count: > 0 }, $"No message on {field}: {problem.ToJsonString()}");
        Assert.Contains(messages, m => m.Contains(expected, StringComparison.Ordinal));
        var text = problem.ToJsonString();
        Assert.DoesNotContain("root:", text, StringComparison.Ordinal);
        Assert.DoesNotContain("System.", text, StringComparison.Ordinal);
        Assert.DoesNotContain("BenchEngine.", text, StringComparison.Ordinal);
        Assert.Equal(0, (await GetJsonAsync(http, "api/runs"))["total"]!.GetValue<int>());
    }

    [Theory]
    [InlineData("""{ "kind": "Redis", "redis": { "port": 1e20 } }""")]
    [InlineData("""{ "kind": "Simulated", "simulator": { "medianLatencyMs": NaN } }""")]
    [InlineData("""{ "kind": "Redis", "redis": { "database": "zero" } }""")]
    public async Task StartRun_AValueThatIsNotANumberItsSettingTakes_IsRefusedInPlainWords(string target)
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);
        using var body = new StringContent($$"""{ "plan": { "name": "n", "target": {{target}}, "stop": { "durationSeconds": 5 } } }""", Encoding.UTF8, "application/json");

        using var response = await http.PostAsync(new Uri("api/runs", UriKind.Relative), body);

        var problem = await AssertProblemAsync(response, HttpStatusCode.BadRequest);
        Assert.DoesNotContain("System.", problem.ToJsonString(), StringComparison.Ordinal);
        Assert.DoesNotContain("BenchEngine.", problem.ToJsonString(), StringComparison.Ordinal);
        Assert.Equal(0, (await GetJsonAsync(http, "api/runs"))["total"]!.GetValue<int>());
    }

    [Fact]
    public async Task StartRun_AKindAsANumber_IsRefusedInPlainWords()
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);
        using var body = new StringContent("""{ "plan": { "name": "n", "target": { "kind": 7 }, "stop": { "durationSeconds": 5 } } }""", Encoding.UTF8, "application/json");

        using var response = await http.PostAsync(new Uri("api/runs", UriKind.Relative), body);

        var problem = await AssertProblemAsync(response, HttpStatusCode.BadRequest);
        Assert.Contains("a name in quotes", problem.ToJsonString(), StringComparison.Ordinal);
        Assert.DoesNotContain("BenchEngine.", problem.ToJsonString(), StringComparison.Ordinal);
    }
}
