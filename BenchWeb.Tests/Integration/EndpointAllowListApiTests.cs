using System.Net;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Guard.Administration;
using BenchWeb.Guard.Security;
using BenchWeb.Tests.Support;
using static BenchWeb.Tests.Integration.RunsApiTests;

namespace BenchWeb.Tests.Integration;

/// <summary>The endpoint allow-list at launch, through the HTTP API of the real app. Every refused plan is refused
/// before anything is queued, so no test here connects anywhere.</summary>
[IntegrationTest]
public sealed class EndpointAllowListApiTests
{
    [Theory]
    [InlineData("https://acme.example.net/", "'acme.example.net' is not on this installation's endpoint allow-list")]
    [InlineData("https://documents.azure.com.evil.example/", "'documents.azure.com.evil.example' is not on this installation's endpoint allow-list")]
    [InlineData("http://acme.documents.azure.com/", "Use https for 'acme.documents.azure.com'")]
    public async Task StartRun_Returns400OnTheEndpointField_WhenTheCosmosEndpointIsNotAllowed(string endpoint, string expected)
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);

        using var response = await PostJsonAsync(http, "api/runs", new { plan = CosmosPlan(endpoint) });

        var problem = await AssertProblemAsync(response, HttpStatusCode.BadRequest);
        Assert.Contains(expected, problem["errors"]!["Target.Cosmos.Endpoint"]![0]!.GetValue<string>(), StringComparison.Ordinal);
        Assert.Equal(0, (await GetJsonAsync(http, "api/runs"))["total"]!.GetValue<int>());
    }

    [Fact]
    public async Task Run_WithATableEndpointOffTheList_FailsWhenTheTargetOpens_BeforeAnyConnection()
    {
        // A connection string named from the environment is read only by the run: the engine's endpoint policy, which
        // is the installation's allow-list, refuses its host before any connection is made.
        using var listener = new System.Net.Sockets.TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        var port = ((IPEndPoint)listener.LocalEndpoint).Port;
        var secret = "BENCHWEB_TEST_TABLES_" + Guid.NewGuid().ToString("N");
        Environment.SetEnvironmentVariable(secret, $"DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey={Convert.ToBase64String(new byte[64])};TableEndpoint=http://127.0.0.1:{port}/devstoreaccount1;");
        try
        {
            var settings = ListedSecrets.Settings(secret, "TableStorage", "Target.Tables.ConnectionStringSecret", "127.0.0.1");
            settings["BenchWeb:Security:AllowLoopbackEndpoints"] = "false";
            await using var host = await DashboardHost.StartAsync(settings);
            using var http = await host.CreateClientAsync(BenchWebRoles.Runner);
            var plan = new RunPlan
            {
                Name = "table off the list",
                Target = new TargetOptions { Kind = TargetKind.TableStorage, Tables = new TableOptions { ConnectionStringSecret = secret } },
                Stop = new StopOptions { TotalDocuments = 10 },
            };

            using var response = await PostJsonAsync(http, "api/runs", new { plan });

            Assert.Equal(HttpStatusCode.Accepted, response.StatusCode);
            var run = await host.WaitUntilEndedAsync((await ReadAsync(response))["id"]!.GetValue<long>(), TimeSpan.FromSeconds(60));
            Assert.Equal(RunStatus.Failed, run.Status);
            Assert.Contains("'127.0.0.1' is this machine (loopback)", run.FailureReason, StringComparison.Ordinal);
            Assert.False(listener.Pending(), "a connection reached the refused endpoint");
        }
        finally
        {
            Environment.SetEnvironmentVariable(secret, null);
        }
    }

    [Fact]
    public async Task StartRun_ARedisKeyNamingACosmosKeyFromTheEnvironment_Is400NamingTheSecret_AndNothingIsSent()
    {
        // The attack: a Runner points a Redis target at a port of theirs and names the installation's Cosmos key as its
        // access key; Redis would send it in clear text (AUTH <key>). The key is listed for the Cosmos key only.
        using var listener = new System.Net.Sockets.TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        var port = ((IPEndPoint)listener.LocalEndpoint).Port;
        var secret = "BENCHWEB_TEST_KEY_NL_" + Guid.NewGuid().ToString("N");
        const string Value = "cosmos-key-that-must-stay-home";
        Environment.SetEnvironmentVariable(secret, Value);
        try
        {
            await using var host = await DashboardHost.StartAsync(ListedSecrets.Settings(secret, "CosmosSql", "Target.Cosmos.KeySecret", "acme-nl.documents.azure.com"));
            using var http = await host.CreateClientAsync(BenchWebRoles.Runner);
            var plan = new RunPlan
            {
                Name = "redis with a cosmos key",
                Target = new TargetOptions { Kind = TargetKind.Redis, Redis = new RedisOptions { Host = "127.0.0.1", Port = port, UseTls = false, AccessKeySecret = secret } },
                Stop = new StopOptions { TotalDocuments = 10 },
            };

            using var response = await PostJsonAsync(http, "api/runs", new { plan });

            var problem = await AssertProblemAsync(response, HttpStatusCode.BadRequest);
            var message = problem["errors"]!["Target.Redis.AccessKeySecret"]![0]!.GetValue<string>();
            Assert.Equal($"The environment secret {secret} is listed for Cosmos DB (SQL API)'s account key (Target.Cosmos.KeySecret): it may not stand for Azure Cache for Redis's access key (Target.Redis.AccessKeySecret).", message);
            Assert.DoesNotContain(Value, problem.ToJsonString(), StringComparison.Ordinal);
            Assert.Equal(0, (await GetJsonAsync(http, "api/runs"))["total"]!.GetValue<int>());
            // Refused before anything was queued: no connection ever reached the port.
            Assert.False(listener.Pending(), "a connection reached the Redis port");
        }
        finally
        {
            Environment.SetEnvironmentVariable(secret, null);
        }
    }

    [Fact]
    public async Task StartRun_RefusesALoopbackEndpoint_WhenTheInstallationDoesNotEnableIt()
    {
        await using var host = await DashboardHost.StartAsync(new Dictionary<string, string?> { ["BenchWeb:Security:AllowLoopbackEndpoints"] = "false" });
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);

        using var response = await PostJsonAsync(http, "api/runs", new { plan = CosmosPlan("https://127.0.0.1:8081/") });

        var problem = await AssertProblemAsync(response, HttpStatusCode.BadRequest);
        var message = problem["errors"]!["Target.Cosmos.Endpoint"]![0]!.GetValue<string>();
        Assert.Contains("'127.0.0.1' is this machine (loopback)", message, StringComparison.Ordinal);
        Assert.Contains("BenchWeb:Security:AllowLoopbackEndpoints", message, StringComparison.Ordinal);
        Assert.NotNull(host.Get<EndpointAllowList>().Check(new Uri("http://localhost:10002/")));
    }

    [Fact]
    public async Task Check_AllowsLoopbackOverHttp_WhenTheInstallationEnablesIt()
    {
        await using var host = await DashboardHost.StartAsync();

        var allowList = host.Get<EndpointAllowList>();

        Assert.Null(allowList.Check(new Uri("http://127.0.0.1:8081/")));
        Assert.Null(allowList.Check(new Uri("http://localhost:10002/devstoreaccount1")));
        Assert.NotNull(allowList.Check(new Uri("http://acme.documents.azure.com/")));
    }

    [Fact]
    public async Task Check_FollowsTheAdministratorsList_OnceSaved()
    {
        await using var host = await DashboardHost.StartAsync();
        var allowList = host.Get<EndpointAllowList>();
        Assert.NotNull(allowList.Check(new Uri("https://bench.example.net/")));

        var errors = await host.Get<InstallationSettingsService>().SaveAsync(new InstallationSettings { EndpointPatterns = ["bench.example.net", "*.documents.azure.com"] }, TestActors.Admin, CancellationToken.None);

        Assert.Empty(errors);
        Assert.Null(allowList.Check(new Uri("https://bench.example.net/")));
        Assert.Null(allowList.Check(new Uri("https://acme.documents.azure.com/")));
        Assert.NotNull(allowList.Check(new Uri("https://acme.table.core.windows.net/")));
    }

    private static RunPlan CosmosPlan(string endpoint) => new()
    {
        Name = "allow-list",
        Target = new TargetOptions { Kind = TargetKind.CosmosSql, Cosmos = new CosmosOptions { Endpoint = endpoint, LimitToEndpoint = true } },
        Stop = new StopOptions { DurationSeconds = 2 },
    };
}
