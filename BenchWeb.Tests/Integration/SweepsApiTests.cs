using System.Diagnostics;
using System.Net;
using System.Text;
using System.Text.Json.Nodes;
using BenchEngine.Running;
using BenchWeb.Data;
using BenchWeb.Guard.Security;
using BenchWeb.Tests.Support;
using Microsoft.EntityFrameworkCore;
using static BenchWeb.Tests.Integration.RunsApiTests;

namespace BenchWeb.Tests.Integration;

/// <summary>Sweeps through the HTTP API of the real app: SQLite, the job scheduler, the simulated target.</summary>
[IntegrationTest]
public sealed class SweepsApiTests
{
    private static readonly TimeSpan SweepTimeout = TimeSpan.FromSeconds(90);

    private static readonly string[] SixConcurrencies = ["1", "2", "4", "8", "16", "32"];

    [Fact]
    [Slow]
    public async Task StartSweep_SixConcurrencySteps_CompletesWithSixLinkedRunsAndAKnee()
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);

        using var response = await PostJsonAsync(http, "api/sweeps", new { plan = ShortPlan("swept", seconds: 2), sweep = new { setting = "Load.Concurrency", values = SixConcurrencies } });

        Assert.Equal(HttpStatusCode.Accepted, response.StatusCode);
        var id = (await ReadAsync(response))["id"]!.GetValue<long>();
        Assert.Equal($"/api/sweeps/{id}", response.Headers.Location!.OriginalString);
        var sweep = await WaitUntilSweepEndedAsync(http, id);
        Assert.Equal("Completed", sweep["status"]!.GetValue<string>());
        // Every run of the sweep is listed: the six steps, and a re-run after any step whose crossing of the knee rule the
        // next step did not confirm.
        var steps = sweep["steps"]!.AsArray();
        var firstRuns = steps.Where(s => !s!["isReRun"]!.GetValue<bool>()).ToList();
        Assert.Equal(SixConcurrencies, firstRuns.Select(s => s!["value"]!.GetValue<string>()));
        foreach (var step in steps)
        {
            var run = await GetJsonAsync(http, $"api/runs/{step!["runId"]!.GetValue<long>()}");
            Assert.Equal("Completed", run["status"]!.GetValue<string>());
            Assert.Equal(int.Parse(step["value"]!.GetValue<string>(), System.Globalization.CultureInfo.InvariantCulture), run["plan"]!["load"]!["concurrency"]!.GetValue<int>());
            Assert.True(step["throughput"]!.GetValue<double>() > 0);
            // The step's throughput is its run's average, and its RU/s the run's, as the run's own page and API give them.
            Assert.Equal(run["summary"]!["averageThroughput"]!.GetValue<double>(), step["throughput"]!.GetValue<double>());
            Assert.Equal(run["summary"]!["requestUnitsPerSecond"]!.GetValue<double>(), step["requestUnitsPerSecond"]!.GetValue<double>());
        }

        // The runs list filters by the sweep: exactly its runs, each naming the sweep and its step.
        var listed = (await GetJsonAsync(http, $"api/runs?sweep={id}&pageSize=50"))["items"]!.AsArray();
        Assert.Equal(steps.Select(s => s!["runId"]!.GetValue<long>()).Order(), listed.Select(r => r!["id"]!.GetValue<long>()).Order());
        Assert.All(listed, r => Assert.Equal(id, r!["sweepId"]!.GetValue<long>()));
        Assert.Equal(steps.Select(s => s!["index"]!.GetValue<int>()).Order(), listed.Select(r => r!["sweepStep"]!.GetValue<int>()).Order());
        Assert.Equal(0, (await GetJsonAsync(http, $"api/runs?sweep={id + 1}"))["total"]!.GetValue<int>());

        var knee = Assert.Single(sweep["knees"]!.AsArray())!;
        var recommended = knee["recommendedIndex"]!.GetValue<int>();
        Assert.Equal(recommended, Assert.Single(steps, s => s!["recommended"]!.GetValue<bool>())!["index"]!.GetValue<int>());
        Assert.False(string.IsNullOrWhiteSpace(knee["reason"]!.GetValue<string>()));
        Assert.Contains(id, (await GetJsonAsync(http, "api/sweeps")).AsArray().Select(s => s!["id"]!.GetValue<long>()));

        var csv = await http.GetStringAsync($"api/sweeps/{id}/export.csv");
        Assert.Equal(1 + steps.Count, csv.Split('\n', StringSplitOptions.RemoveEmptyEntries).Length);
        Assert.StartsWith("Step,Series,Value,Status,Average throughput (docs/s)", csv, StringComparison.Ordinal);
        var markdown = await http.GetStringAsync($"api/sweeps/{id}/export.md");
        Assert.Contains("◀ recommended", markdown, StringComparison.Ordinal);

        // The sweep and each of its steps are in the audit log as launches.
        await using var db = await host.OpenDatabaseAsync();
        var actions = await db.AuditEntries.Select(e => e.Action).ToListAsync();
        Assert.Single(actions, a => a == "sweep.launched");
        Assert.Equal(steps.Count, actions.Count(a => a == "run.launched"));
    }

    [Fact]
    [Slow]
    public async Task StartSweep_WithMetadata_KeepsItOnTheSweepAndEveryStepsRun_AndRefusesItOutOfBounds()
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);
        var plan = ShortPlan("from a pipeline", seconds: 1);

        // Out of bounds: refused on its field like a run's, and nothing is queued.
        using var refused = await PostJsonAsync(http, "api/sweeps", new { plan, sweep = new { setting = "Load.Concurrency", values = new[] { "1", "2" } }, metadata = new Dictionary<string, string> { ["commit"] = new string('a', 201) } });
        var problem = await AssertProblemAsync(refused, HttpStatusCode.BadRequest);
        Assert.StartsWith("At most 200 characters", problem["errors"]!["Metadata.commit"]![0]!.GetValue<string>(), StringComparison.Ordinal);
        Assert.Empty((await GetJsonAsync(http, "api/sweeps")).AsArray());

        var metadata = new Dictionary<string, string> { ["commit"] = "1a2b3c4", ["pipeline"] = "https://ci.example.com/runs/812" };
        using var response = await PostJsonAsync(http, "api/sweeps", new { plan, sweep = new { setting = "Load.Concurrency", values = new[] { "1", "2" } }, metadata });
        Assert.Equal(HttpStatusCode.Accepted, response.StatusCode);
        var sweep = await WaitUntilSweepEndedAsync(http, (await ReadAsync(response))["id"]!.GetValue<long>());

        Assert.Equal("1a2b3c4", sweep["metadata"]!["commit"]!.GetValue<string>());
        var steps = sweep["steps"]!.AsArray();
        Assert.True(steps.Count >= 2, sweep.ToJsonString());
        foreach (var step in steps)
        {
            var run = await GetJsonAsync(http, $"api/runs/{step!["runId"]!.GetValue<long>()}");
            Assert.Equal("1a2b3c4", run["metadata"]!["commit"]!.GetValue<string>());
            Assert.Equal("https://ci.example.com/runs/812", run["metadata"]!["pipeline"]!.GetValue<string>());
        }

        Assert.Equal(steps.Count, (await GetJsonAsync(http, "api/runs?meta=commit%3D1a2b3c4"))["total"]!.GetValue<int>());
    }

    [Fact]
    [Slow]
    public async Task CancelSweep_MidSweep_EndsCancelledAndStartsNoFurtherStep()
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);
        using var response = await PostJsonAsync(http, "api/sweeps", new { plan = ShortPlan("cancelled", seconds: 3), sweep = new { setting = "Load.Concurrency", values = SixConcurrencies } });
        var id = (await ReadAsync(response))["id"]!.GetValue<long>();
        await WaitForAsync(async () => (await GetJsonAsync(http, $"api/sweeps/{id}"))["steps"]!.AsArray().Count >= 2, "the second step to start");

        using var cancel = await http.PostAsync($"api/sweeps/{id}/cancel", null);

        Assert.Equal(HttpStatusCode.Accepted, cancel.StatusCode);
        var sweep = await WaitUntilSweepEndedAsync(http, id);
        Assert.Equal("Cancelled", sweep["status"]!.GetValue<string>());
        var steps = sweep["steps"]!.AsArray();
        Assert.InRange(steps.Count(s => !s!["isReRun"]!.GetValue<bool>()), 2, 3);
        Assert.Equal("Cancelled", steps.MaxBy(s => s!["runId"]!.GetValue<long>())!["status"]!.GetValue<string>());
        await Task.Delay(TimeSpan.FromSeconds(4));
        Assert.Equal(steps.Count, (await GetJsonAsync(http, $"api/sweeps/{id}"))["steps"]!.AsArray().Count);
        await AssertProblemAsync(await http.PostAsync($"api/sweeps/{id}/cancel", null), HttpStatusCode.Conflict);
    }

    [Fact]
    public async Task StartSweep_HostileInput_Returns400WithFieldPathsAndStoresNothing()
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);
        var plan = ShortPlan("hostile", seconds: 2);

        using var unknown = await PostJsonAsync(http, "api/sweeps", new { plan, sweep = new { setting = "Target.Cosmos.Key", values = new[] { "1", "2" } } });
        using var tooMany = await PostJsonAsync(http, "api/sweeps", new { plan, sweep = new { setting = "Load.Concurrency", values = Enumerable.Range(1, 1_000).Select(i => $"{i}").ToArray() } });
        using var notANumber = await PostJsonAsync(http, "api/sweeps", new { plan, sweep = new { setting = "Load.Concurrency", values = new[] { "4", "abc" } } });
        using var nanMultiple = await http.PostAsync("api/sweeps", new StringContent(
            $$"""{ "plan": {{System.Text.Json.JsonSerializer.Serialize(plan, BenchEngine.Running.RunPlan.JsonOptions)}}, "sweep": { "setting": "Load.Concurrency", "values": ["1", "2"], "knee": { "p99Multiple": "NaN" } } }""",
            Encoding.UTF8, "application/json"));
        using var zeroConcurrency = await PostJsonAsync(http, "api/sweeps", new { plan, sweep = new { setting = "Load.Concurrency", values = new[] { "4", "0" } } });
        using var notItsTarget = await PostJsonAsync(http, "api/sweeps", new { plan, sweep = new { setting = "Load.Concurrency", values = new[] { "4", "8" }, seriesSetting = "Target.Cosmos.GatewayMaxConnections", seriesValues = new[] { "10" } } });
        // A problem of the base plan, which every step has, is keyed by its own field, not by a step's value.
        using var offTheList = await http.PostAsync("api/sweeps", new StringContent(
            """{ "plan": { "name": "off the list", "target": { "kind": "CosmosSql", "cosmos": { "endpoint": "https://evil.example.com/", "keySecret": "K1" } }, "stop": { "durationSeconds": 2 } }, "sweep": { "setting": "Target.Cosmos.Bulk", "values": ["true", "false"] } }""",
            Encoding.UTF8, "application/json"));

        Assert.NotNull((await AssertProblemAsync(unknown, HttpStatusCode.BadRequest))["errors"]!["Sweep.Setting"]);
        Assert.NotNull((await AssertProblemAsync(tooMany, HttpStatusCode.BadRequest))["errors"]!["Sweep.Values"]);
        Assert.NotNull((await AssertProblemAsync(notANumber, HttpStatusCode.BadRequest))["errors"]!["Sweep.Values"]);
        Assert.Contains("p99Multiple", (await AssertProblemAsync(nanMultiple, HttpStatusCode.BadRequest))["errors"]!.ToJsonString(), StringComparison.OrdinalIgnoreCase);
        Assert.Contains("Load.Concurrency", (await AssertProblemAsync(zeroConcurrency, HttpStatusCode.BadRequest))["errors"]!["Sweep.Values[1]"]![0]!.GetValue<string>(), StringComparison.Ordinal);
        Assert.Equal("Gateway max connections (Target.Cosmos.GatewayMaxConnections) is a setting of Cosmos DB (SQL API); this profile's target is Simulated Cosmos DB: choose a setting its runs read.",
            (await AssertProblemAsync(notItsTarget, HttpStatusCode.BadRequest))["errors"]!["Sweep.SeriesSetting"]![0]!.GetValue<string>());
        var offTheListErrors = (await AssertProblemAsync(offTheList, HttpStatusCode.BadRequest))["errors"]!.AsObject();
        Assert.Contains("evil.example.com", offTheListErrors["Target.Cosmos.Endpoint"]![0]!.GetValue<string>(), StringComparison.Ordinal);
        Assert.DoesNotContain(offTheListErrors, e => e.Key.StartsWith("Sweep.Values", StringComparison.Ordinal));
        Assert.Empty((await GetJsonAsync(http, "api/sweeps")).AsArray());
        Assert.Equal(0, (await GetJsonAsync(http, "api/runs"))["total"]!.GetValue<int>());
    }

    [Fact]
    public async Task Restart_SweepLeftRunningOrQueued_IsClosedAsFailedAndRunsNoStep()
    {
        var dataDirectory = DashboardHost.NewDataDirectory();
        try
        {
            long running, queued;
            await using (var first = await DashboardHost.StartAsync(dataDirectory))
            {
                await using var db = await first.OpenDatabaseAsync();
                SweepEntity Left(RunStatus status) => new()
                {
                    Name = "left open",
                    PlanJson = ShortPlan("left open", seconds: 1).ToJson(),
                    SweepJson = """{ "setting": "Load.Concurrency", "values": ["1", "2"] }""",
                    Status = status,
                    QueuedAt = DateTimeOffset.UtcNow,
                };
                var (a, b) = (Left(RunStatus.Running), Left(RunStatus.Queued));
                db.Sweeps.AddRange(a, b);
                await db.SaveChangesAsync();
                (running, queued) = (a.Id, b.Id);
            }

            await using var second = await DashboardHost.StartAsync(dataDirectory);
            await using var reopened = await second.OpenDatabaseAsync();

            foreach (var id in new[] { running, queued })
            {
                var sweep = await reopened.Sweeps.SingleAsync(s => s.Id == id);
                Assert.Equal(RunStatus.Failed, sweep.Status);
                Assert.NotNull(sweep.EndedAt);
                Assert.False(string.IsNullOrEmpty(sweep.StopReason));
            }

            Assert.Empty(await reopened.Runs.ToListAsync());
        }
        finally
        {
            DashboardHost.DeleteDataDirectory(dataDirectory);
        }
    }

    internal static async Task<JsonNode> WaitUntilSweepEndedAsync(HttpClient http, long id)
    {
        JsonNode? sweep = null;
        await WaitForAsync(async () => (sweep = await GetJsonAsync(http, $"api/sweeps/{id}"))["status"]!.GetValue<string>() is not ("Queued" or "Running"), $"sweep {id} to end");
        return sweep!;
    }

    private static async Task WaitForAsync(Func<Task<bool>> condition, string what)
    {
        var clock = Stopwatch.StartNew();
        while (!await condition())
        {
            Assert.True(clock.Elapsed < SweepTimeout, $"Timed out waiting for {what}.");
            await Task.Delay(200);
        }
    }
}
