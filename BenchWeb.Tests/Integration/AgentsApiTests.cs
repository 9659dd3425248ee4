using System.Net;
using System.Text;
using BenchEngine.Running;
using BenchWeb.Guard.Security;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Integration;

/// <summary>The agents of an embedded installation (its one instance) and what a plan may ask of them there.</summary>
[IntegrationTest]
public sealed class AgentsApiTests
{
    [Fact]
    public async Task EmbeddedMode_ListsItsOneInstance_AsAnAliveAgent()
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Viewer);

        var agents = (await RunsApiTests.GetJsonAsync(http, "api/agents")).AsArray();

        var agent = Assert.Single(agents)!;
        Assert.Equal("Alive", agent["state"]!.GetValue<string>());
        Assert.Equal("All", agent["role"]!.GetValue<string>());
        Assert.Equal(Environment.ProcessorCount, agent["cores"]!.GetValue<int>());
        Assert.True(agent["memoryBytes"]!.GetValue<long>() > 0);
    }

    [Fact]
    public async Task EmbeddedMode_RefusesARunSpreadOverAgents_OnItsField_AndQueuesNothing()
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);
        var plan = RunsApiTests.ShortPlan("three agents", seconds: 3) with { Load = new LoadOptions { Concurrency = 6, Agents = 3 } };

        using var response = await RunsApiTests.PostJsonAsync(http, "api/runs", new { plan });

        var problem = await RunsApiTests.AssertProblemAsync(response, HttpStatusCode.BadRequest);
        Assert.Contains("shared mode", problem["errors"]!["Load.Agents"]![0]!.GetValue<string>(), StringComparison.Ordinal);
        Assert.Equal(0, (await RunsApiTests.GetJsonAsync(http, "api/runs"))["total"]!.GetValue<int>());
    }

    [Theory]
    [InlineData("\"three\"")]
    [InlineData("1e40")]
    [InlineData("-5")]
    [InlineData("100000")]
    public async Task HostileAgentCounts_AreRefusedOnTheirField(string value)
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);
        var json = """{"plan":{"name":"hostile","load":{"concurrency":4,"agents":""" + value + """},"stop":{"durationSeconds":3}}}""";

        using var response = await http.PostAsync("api/runs", new StringContent(json, Encoding.UTF8, "application/json"));

        var problem = await RunsApiTests.AssertProblemAsync(response, HttpStatusCode.BadRequest);
        var errors = problem["errors"]!.AsObject();
        Assert.Contains(errors, e => e.Key.Contains("agents", StringComparison.OrdinalIgnoreCase));
        // Nothing of the server's own in the answer: neither its folders nor an exception's text.
        var text = errors.ToJsonString();
        Assert.DoesNotContain(AppContext.BaseDirectory.TrimEnd('/'), text, StringComparison.Ordinal);
        Assert.DoesNotContain(host.DataDirectory, text, StringComparison.Ordinal);
        Assert.DoesNotContain("Exception", text, StringComparison.Ordinal);
    }

    [Fact]
    public async Task RunAgents_OfAMissingRun_Is404_AndWithoutSignIn401()
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Viewer);

        using var missing = await http.GetAsync("api/runs/424242/agents");
        await RunsApiTests.AssertProblemAsync(missing, HttpStatusCode.NotFound);

        using var anonymous = new HttpClient { BaseAddress = host.BaseAddress };
        using var agents = await anonymous.GetAsync("api/agents");
        Assert.Equal(HttpStatusCode.Unauthorized, agents.StatusCode);
    }
}
