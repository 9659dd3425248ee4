using System.Net.Http.Json;
using System.Text.Json;
using BenchEngine.Metrics;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;
using BenchWeb.Data;
using BenchWeb.Hubs;
using BenchWeb.Live;
using BenchWeb.Tests.Support;
using Microsoft.AspNetCore.SignalR.Client;
using Microsoft.Extensions.DependencyInjection;
using Npgsql;
using Xunit.Abstractions;

namespace BenchWeb.Tests.Integration.Fleet;

/// <summary>Shared mode end to end: real PostgreSQL and Redis, real Azurite, and several dashboard processes as agents.</summary>
[IntegrationTest]
[Slow]
[Collection(FleetCollection.Name)]
public sealed class SharedModeTests(AzuriteServer azurite, ITestOutputHelper output)
{
    [Fact]
    public async Task RunOverThreeAgents_LandsExactlyThePlannedEntities_AndTheRunsFiguresAreTheAgentsFiguresAddedUp()
    {
        await using var fleet = await SharedModeFleet.StartAsync();
        var secrets = new Dictionary<string, string> { ["TABLES_CONNECTION_STRING"] = azurite.ConnectionString };
        var first = await fleet.AddAsync("agent-a", environment: secrets);
        var second = await fleet.AddAsync("agent-b", environment: secrets);
        await fleet.AddAsync("agent-c", environment: secrets);
        using var http = await first.CreateSignedInClientAsync();
        await SharedModeFleet.WaitForAgentsAsync(http, 3);

        // A viewer of another instance: every agent's own seconds reach it, pushed through the backplane.
        await using var hub = await ConnectAsync(second);
        var agentSeconds = new List<ShardSecond>();
        hub.On<ShardSecond>(RunsHub.ShardSecondMessage, s =>
        {
            lock (agentSeconds)
            {
                agentSeconds.Add(s);
            }
        });

        var table = StorageTargets.NewName();
        var plan = StorageTargets.Plan(new TargetOptions { Kind = TargetKind.TableStorage, Tables = new TableOptions { TableName = table } }, concurrency: 6, documents: 3_001) with
        {
            Load = new LoadOptions { Concurrency = 6, Agents = 3 },
        };
        var runId = await SharedModeFleet.LaunchAsync(http, plan, first);
        await hub.InvokeAsync<IReadOnlyList<RunSecondEntity>>("JoinRun", runId);
        var run = await SharedModeFleet.WaitForEndAsync(http, runId, TimeSpan.FromSeconds(120));
        output.WriteLine(run.ToString());
        Assert.Equal("Completed", run.GetProperty("status").GetString());
        Assert.Equal(3, run.GetProperty("agents").GetInt32());
        await Eventually.TrueAsync(() =>
        {
            lock (agentSeconds)
            {
                return Task.FromResult(agentSeconds.Sum(s => s.Ok) == 3_001);
            }
        }, TimeSpan.FromSeconds(10), "every agent's seconds to reach the viewer");
        lock (agentSeconds)
        {
            Assert.Equal(["agent-a", "agent-b", "agent-c"], agentSeconds.Select(s => s.Agent).Distinct().Order());
        }

        // What landed in the target is what the plan asked for: each document once, none twice.
        Assert.Equal(3_001, await azurite.CountEntitiesAsync(table));

        // The run's seconds, its per-agent rows and the shards' own seconds all add up to it.
        var rows = await http.GetFromJsonAsync<JsonElement>($"api/runs/{runId}/agents");
        Assert.Equal(3, rows.GetArrayLength());
        Assert.Equal(["agent-a", "agent-b", "agent-c"], rows.EnumerateArray().Select(r => r.GetProperty("agent").GetString()).Order());
        Assert.Equal([1_001L, 1_000L, 1_000L], rows.EnumerateArray().OrderBy(r => r.GetProperty("shard").GetInt32()).Select(r => r.GetProperty("ok").GetInt64()));
        await using var db = new NpgsqlConnection(fleet.DatabaseConnectionString);
        await db.OpenAsync();
        Assert.Equal(3_001L, await SharedModeFleet.ScalarAsync<long>(db, $"SELECT SUM(\"Ok\") FROM \"RunSeconds\" WHERE \"RunId\" = {runId}"));
        Assert.Equal(3_001L, run.GetProperty("summary").GetProperty("totalOk").GetInt64());

        // Second by second, the run's chart is its agents' seconds added up.
        Assert.Equal(0L, await SharedModeFleet.ScalarAsync<long>(db, $"""
            SELECT COUNT(*) FROM "RunSeconds" r
            WHERE r."RunId" = {runId}
              AND r."Ok" <> (SELECT SUM(CAST(s."SnapshotJson"::json->>'ok' AS bigint)) FROM "RunShardSeconds" s WHERE s."RunId" = r."RunId" AND s."Index" = r."Index")
            """));

        // The run's p99 is that of every operation: the shards' histograms merged, never an average of their p99s.
        var histograms = new List<byte[]>();
        await using (var command = new NpgsqlCommand($"SELECT \"LatencyHistogram\" FROM \"RunShards\" WHERE \"RunId\" = {runId}", db))
        await using (var reader = await command.ExecuteReaderAsync())
        {
            while (await reader.ReadAsync())
            {
                histograms.Add((byte[])reader[0]);
            }
        }

        var merged = ShardMerge.Merge(histograms);
        Assert.Equal(3_001, merged.Count);
        Assert.Equal(merged.MillisecondsAtPercentile(99), run.GetProperty("summary").GetProperty("latency").GetProperty("p99Ms").GetDouble(), 6);

        // Each agent's slowest requests are kept in PostgreSQL with the run, named by agent and placed in the run's seconds.
        var slow = await http.GetFromJsonAsync<JsonElement>($"api/runs/{runId}/diagnostics");
        var entries = slow.GetProperty("entries").EnumerateArray().ToList();
        Assert.Equal(["agent-a", "agent-b", "agent-c"], entries.Select(e => e.GetProperty("target").GetString()![(e.GetProperty("target").GetString()!.LastIndexOf("agent ", StringComparison.Ordinal) + 6)..]).Distinct().Order());
        var seconds = await SharedModeFleet.ScalarAsync<long>(db, $"SELECT COUNT(*) FROM \"RunSeconds\" WHERE \"RunId\" = {runId}");
        Assert.All(entries, e => Assert.InRange(e.GetProperty("second").GetInt32(), 0, seconds - 1));
        Assert.All(entries, e => Assert.Contains("x-ms-request-id: ", e.GetProperty("text").GetString(), StringComparison.Ordinal));
    }

    [Fact]
    public async Task AnAgentKilledMidRun_ItsShardIsInterrupted_TheOthersFinish_AndTheRunSaysSo()
    {
        await using var fleet = await SharedModeFleet.StartAsync();
        var first = await fleet.AddAsync("agent-a");
        await fleet.AddAsync("agent-b");
        var doomed = await fleet.AddAsync("agent-c");
        using var http = await first.CreateSignedInClientAsync();
        await SharedModeFleet.WaitForAgentsAsync(http, 3);

        var plan = new RunPlan
        {
            Name = "three agents, one dies",
            Target = new TargetOptions { Kind = TargetKind.Simulated, Simulator = new SimulatorOptions { ProvisionedRequestUnits = 100_000, MedianLatencyMs = 20 } },
            Workload = new WorkloadOptions { Shape = DocumentShape.SmallDto },
            Load = new LoadOptions { Concurrency = 6, Agents = 3 },
            Stop = new StopOptions { DurationSeconds = 14 },
        };
        var runId = await SharedModeFleet.LaunchAsync(http, plan, first);
        await Eventually.TrueAsync(async () =>
        {
            var rows = await http.GetFromJsonAsync<JsonElement>($"api/runs/{runId}/agents");
            return rows.EnumerateArray().All(r => r.GetProperty("seconds").GetInt32() >= 2);
        }, TimeSpan.FromSeconds(30), "every shard to measure two seconds");
        doomed.Kill();

        var run = await SharedModeFleet.WaitForEndAsync(http, runId, TimeSpan.FromSeconds(60));
        output.WriteLine(run.ToString());
        Assert.Equal("Interrupted", run.GetProperty("status").GetString());
        var reason = run.GetProperty("failureReason").GetString()!;
        Assert.Contains("agent agent-c", reason, StringComparison.Ordinal);
        Assert.Contains("stopped heartbeating", reason, StringComparison.Ordinal);
        Assert.Contains("The other 2 shards finished", reason, StringComparison.Ordinal);

        var agentRows = (await http.GetFromJsonAsync<JsonElement>($"api/runs/{runId}/agents")).EnumerateArray().ToList();
        Assert.Equal(["Completed", "Completed", "Interrupted"], agentRows.Select(r => r.GetProperty("status").GetString()).Order());
        Assert.Equal("agent-c", agentRows.Single(r => r.GetProperty("status").GetString() == "Interrupted").GetProperty("agent").GetString());

        // The survivors ran until the run's common end, 14 s after its common start (a busy machine may start them late: they
        // then stop at that end all the same, plus the stop's grace period, as long as a busy machine makes it); the run's totals are every shard's saved seconds added up.
        Assert.All(agentRows.Where(r => r.GetProperty("status").GetString() == "Completed"),
            r => Assert.InRange(r.GetProperty("offsetSeconds").GetInt32() + r.GetProperty("seconds").GetInt32(), 14, 30));
        Assert.Equal(agentRows.Sum(r => r.GetProperty("ok").GetInt64()), run.GetProperty("summary").GetProperty("totalOk").GetInt64());

        // The run's percentiles are over every operation it counted, the dead agent's too (from the seconds it saved).
        var summary = run.GetProperty("summary");
        Assert.Equal(summary.GetProperty("totalOkRequests").GetInt64(), summary.GetProperty("latency").GetProperty("count").GetInt64());

        // The dead agent's job does not stay "Processing" on the scheduler: it ended failed, saying why.
        await using var db = new NpgsqlConnection(fleet.DatabaseConnectionString);
        await db.OpenAsync();
        var jobId = await SharedModeFleet.ScalarAsync<string>(db, $"SELECT \"JobId\" FROM \"RunShards\" WHERE \"RunId\" = {runId} AND \"AgentName\" = 'agent-c'");
        await Eventually.TrueAsync(async () => await SharedModeFleet.ScalarAsync<string>(db, $"SELECT statename FROM hangfire.job WHERE id = {jobId}") == "Failed",
            TimeSpan.FromSeconds(10), "the dead agent's job to end failed");
        var jobReason = await SharedModeFleet.ScalarAsync<string>(db, $"SELECT reason FROM hangfire.state WHERE jobid = {jobId} ORDER BY id DESC LIMIT 1");
        Assert.Contains("agent-c stopped heartbeating", jobReason, StringComparison.Ordinal);
    }

    [Fact]
    public async Task AViewerOfTheWebInstance_SeesTheSecondsMeasuredOnAnAgentInstance_ThroughTheBackplane()
    {
        await using var fleet = await SharedModeFleet.StartAsync();
        var web = await fleet.AddAsync("web", role: "Web");
        await fleet.AddAsync("worker", role: "Agent");
        using var http = await web.CreateSignedInClientAsync();
        await SharedModeFleet.WaitForAgentsAsync(http, 1);
        var agents = await http.GetFromJsonAsync<JsonElement>("api/agents");
        Assert.Equal(["worker"], agents.EnumerateArray().Select(a => a.GetProperty("name").GetString()));

        await using var hub = await ConnectAsync(web);
        var seconds = new List<RunSecondEntity>();
        var ended = new TaskCompletionSource<RunStatus>(TaskCreationOptions.RunContinuationsAsynchronously);
        hub.On<RunSecondEntity, JsonElement?>(RunsHub.SecondMessage, (second, _) =>
        {
            lock (seconds)
            {
                seconds.Add(second);
            }
        });
        hub.On<RunStatusChange>(RunsHub.StatusMessage, change =>
        {
            if (change.Status is not (RunStatus.Queued or RunStatus.Running))
            {
                ended.TrySetResult(change.Status);
            }
        });

        var plan = new RunPlan
        {
            Name = "on the agent",
            Target = new TargetOptions { Kind = TargetKind.Simulated },
            Workload = new WorkloadOptions { Shape = DocumentShape.SmallDto },
            Load = new LoadOptions { Concurrency = 4 },
            Stop = new StopOptions { DurationSeconds = 5 },
        };

        // Joined before the job can start: the agent polls its queue about once a second.
        var runId = await SharedModeFleet.LaunchAsync(http, plan, web);
        await hub.InvokeAsync<IReadOnlyList<RunSecondEntity>>("JoinRun", runId);

        // An instance starting meanwhile leaves the other agent's run alone (embedded mode would close it as left over).
        await Eventually.TrueAsync(async () => (await http.GetFromJsonAsync<JsonElement>($"api/runs/{runId}")).GetProperty("status").GetString() == "Running",
            TimeSpan.FromSeconds(30), "the run to start");
        await fleet.AddAsync("late");
        Assert.Equal(RunStatus.Completed, await ended.Task.WaitAsync(TimeSpan.FromSeconds(60)));

        var run = await SharedModeFleet.WaitForEndAsync(http, runId, TimeSpan.FromSeconds(10));
        lock (seconds)
        {
            Assert.True(seconds.Count >= 4, $"{seconds.Count} seconds pushed to the web instance's viewer");
            Assert.All(seconds, s => Assert.Equal(runId, s.RunId));
        }

        Assert.Equal(5, (int)Math.Round(run.GetProperty("summary").GetProperty("elapsed").GetString() is { } elapsed ? TimeSpan.Parse(elapsed, System.Globalization.CultureInfo.InvariantCulture).TotalSeconds : 0));
    }

    [Fact]
    public async Task CancellingARunSpreadOverAgents_StopsItsRunningShards_AndClosesTheWaitingOnes()
    {
        await using var fleet = await SharedModeFleet.StartAsync();
        var first = await fleet.AddAsync("agent-a");
        await fleet.AddAsync("agent-b");
        using var http = await first.CreateSignedInClientAsync();
        await SharedModeFleet.WaitForAgentsAsync(http, 2);
        var plan = new RunPlan
        {
            Name = "cancelled on two agents",
            Target = new TargetOptions { Kind = TargetKind.Simulated },
            Workload = new WorkloadOptions { Shape = DocumentShape.SmallDto },
            Load = new LoadOptions { Concurrency = 4, Agents = 2 },
            Stop = new StopOptions { DurationSeconds = 120 },
        };
        // One agent is busy with a run of its own (each agent runs one at a time): the spread run's shard for it waits.
        var busy = await SharedModeFleet.LaunchAsync(http, plan with { Name = "keeps one agent busy", Load = new LoadOptions { Concurrency = 2 } }, first);
        await Eventually.TrueAsync(async () => (await http.GetFromJsonAsync<JsonElement>($"api/runs/{busy}")).GetProperty("status").GetString() == "Running",
            TimeSpan.FromSeconds(30), "the busy agent's run to start");
        var runId = await SharedModeFleet.LaunchAsync(http, plan, first);
        await Eventually.TrueAsync(async () =>
        {
            var rows = (await http.GetFromJsonAsync<JsonElement>($"api/runs/{runId}/agents")).EnumerateArray().ToList();
            return rows.Any(r => r.GetProperty("seconds").GetInt32() >= 2) && rows.Any(r => r.GetProperty("status").GetString() == "Queued");
        }, TimeSpan.FromSeconds(30), "one shard to measure two seconds while the other waits");

        using (var cancel = await http.PostAsync($"api/runs/{runId}/cancel", null))
        {
            Assert.True(cancel.IsSuccessStatusCode, await cancel.Content.ReadAsStringAsync());
        }

        var run = await SharedModeFleet.WaitForEndAsync(http, runId, TimeSpan.FromSeconds(30));
        Assert.Equal("Cancelled", run.GetProperty("status").GetString());
        var rowsAfter = (await http.GetFromJsonAsync<JsonElement>($"api/runs/{runId}/agents")).EnumerateArray().ToList();
        Assert.All(rowsAfter, r => Assert.Equal("Cancelled", r.GetProperty("status").GetString()));

        // The run ends when its last shard has (its ended time is set then), after the cancel request and long before the
        // 120 s the waiting shard would have run had the cancel not reached it.
        var took = run.GetProperty("endedAt").GetDateTimeOffset() - run.GetProperty("cancelRequestedAt").GetDateTimeOffset();
        output.WriteLine($"ended {took.TotalSeconds:N2} s after the cancel request");
        Assert.InRange(took, TimeSpan.Zero, TimeSpan.FromSeconds(60));
        Assert.Equal(rowsAfter.Sum(r => r.GetProperty("ok").GetInt64()), run.GetProperty("summary").GetProperty("totalOk").GetInt64());

        // The busy agent's own run goes on, untouched.
        Assert.Equal("Running", (await http.GetFromJsonAsync<JsonElement>($"api/runs/{busy}")).GetProperty("status").GetString());
        using var stopBusy = await http.PostAsync($"api/runs/{busy}/cancel", null);
        Assert.Equal("Cancelled", (await SharedModeFleet.WaitForEndAsync(http, busy, TimeSpan.FromSeconds(30))).GetProperty("status").GetString());
    }

    [Fact]
    public async Task ASweepOfTheNumberOfAgents_SpreadsEachStepOverThatMany_BesidesTheAgentRunningTheSweep()
    {
        await using var fleet = await SharedModeFleet.StartAsync();
        var first = await fleet.AddAsync("agent-a");
        await fleet.AddAsync("agent-b");
        await fleet.AddAsync("agent-c");
        using var http = await first.CreateSignedInClientAsync();
        await SharedModeFleet.WaitForAgentsAsync(http, 3);
        var plan = new RunPlan
        {
            Name = "agents sweep",
            Target = new TargetOptions { Kind = TargetKind.Simulated, Simulator = new SimulatorOptions { ProvisionedRequestUnits = 100_000, MedianLatencyMs = 20 } },
            Workload = new WorkloadOptions { Shape = DocumentShape.SmallDto },
            Load = new LoadOptions { Concurrency = 8 },
            // Long enough that two agents overlap even when a busy machine has one take its shard seconds late (a late
            // shard joins at the second the run is in and stops at the common end: a 3 s step once measured nothing).
            Stop = new StopOptions { DurationSeconds = 8 },
        };
        var body = JsonSerializer.Serialize(new { plan, sweep = new { setting = "Load.Agents", values = new[] { "1", "2" } } }, RunPlan.JsonOptions);
        using var launched = await http.PostAsync("api/sweeps", new StringContent(body, System.Text.Encoding.UTF8, "application/json"));
        Assert.True(launched.IsSuccessStatusCode, await launched.Content.ReadAsStringAsync());
        var sweepId = JsonDocument.Parse(await launched.Content.ReadAsStringAsync()).RootElement.GetProperty("id").GetInt64();

        JsonElement sweep = default;
        await Eventually.TrueAsync(async () =>
        {
            sweep = await http.GetFromJsonAsync<JsonElement>($"api/sweeps/{sweepId}");
            return sweep.GetProperty("status").GetString() is not ("Queued" or "Running");
        }, TimeSpan.FromSeconds(90), "the sweep to end");
        output.WriteLine(sweep.ToString());
        Assert.Equal("Completed", sweep.GetProperty("status").GetString());
        var steps = sweep.GetProperty("steps").EnumerateArray().Where(s => !s.GetProperty("isReRun").GetBoolean()).ToList();
        Assert.Equal(2, steps.Count);
        var runs = new List<JsonElement>();
        foreach (var step in steps)
        {
            runs.Add(await http.GetFromJsonAsync<JsonElement>($"api/runs/{step.GetProperty("runId").GetInt64()}"));
        }

        Assert.All(runs, r => Assert.Equal("Completed", r.GetProperty("status").GetString()));
        Assert.Equal([1, 2], runs.Select(r => r.GetProperty("agents").GetInt32()));

        // The same 8 workers, on one agent or split 4 + 4 over two, never 8 on each: no second of either step had more than 8
        // requests in flight, and the busiest more than 4 (a worker waits 20 ms for each answer, so its request is nearly
        // always out when a second closes; a slow machine only keeps it out longer). Counts, not rates: a busy machine
        // cannot move them.
        foreach (var step in steps)
        {
            var export = await http.GetFromJsonAsync<JsonElement>($"api/runs/{step.GetProperty("runId").GetInt64()}/export.json");
            var inFlight = export.GetProperty("seconds").EnumerateArray().Select(s => s.GetProperty("inFlight").GetInt64()).ToList();
            output.WriteLine($"step {step.GetProperty("index").GetInt32() + 1}: in flight {string.Join(", ", inFlight)}");
            Assert.InRange(inFlight.Max(), 5, 8);
        }

        Assert.Single(sweep.GetProperty("knees").EnumerateArray());
    }

    /// <summary>The hub of an instance, signed in with its session's cookie, as the run page connects.</summary>
    private static async Task<HubConnection> ConnectAsync(DashboardProcess instance)
    {
        var cookies = await instance.SessionAsync();
        var hub = new HubConnectionBuilder()
            .WithUrl(new Uri(instance.BaseAddress, RunsHub.Path.TrimStart('/')), options => options.Cookies = cookies)
            .AddJsonProtocol(json => json.PayloadSerializerOptions.Converters.Add(new System.Text.Json.Serialization.JsonStringEnumConverter()))
            .Build();
        await hub.StartAsync();
        return hub;
    }
}
