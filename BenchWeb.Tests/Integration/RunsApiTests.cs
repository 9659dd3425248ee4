using System.Diagnostics;
using System.Net;
using System.Net.Http.Json;
using System.Text;
using System.Text.Json;
using System.Text.Json.Nodes;
using BenchEngine.Running;
using BenchWeb.Guard.Security;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Integration;

/// <summary>The HTTP API through the real app on a loopback port: SQLite, the job scheduler, the simulated target.</summary>
[IntegrationTest]
public sealed class RunsApiTests
{
    private static readonly TimeSpan RunTimeout = TimeSpan.FromSeconds(60);

    [Fact]
    public async Task Profiles_CreateThenListThenGet_RoundTripsThePlan()
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);
        var plan = ShortPlan("api profile", seconds: 5) with { Load = new LoadOptions { Concurrency = 7 } };

        using var created = await PostJsonAsync(http, "api/profiles", new { name = "From the API", description = "made by a test", plan });

        Assert.Equal(HttpStatusCode.Created, created.StatusCode);
        var profile = await ReadAsync(created);
        var id = profile["id"]!.GetValue<long>();
        Assert.Equal($"/api/profiles/{id}", created.Headers.Location?.OriginalString);
        var list = (await GetJsonAsync(http, "api/profiles")).AsArray();
        Assert.Contains(list, p => p!["id"]!.GetValue<long>() == id && p["name"]!.GetValue<string>() == "From the API");
        var read = await GetJsonAsync(http, $"api/profiles/{id}");
        Assert.Equal("made by a test", read["description"]!.GetValue<string>());
        Assert.Equal(7, read["plan"]!["load"]!["concurrency"]!.GetValue<int>());
        Assert.Equal("Simulated", read["plan"]!["target"]!["kind"]!.GetValue<string>());
        Assert.Equal("From the API", RunPlan.FromJson(read["plan"]!.ToJsonString()).Name);
    }

    [Fact]
    public async Task CreateProfile_InvalidPlan_Returns400ValidationProblemNamingTheField()
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);
        var plan = ShortPlan("invalid", seconds: 5) with { Load = new LoadOptions { Concurrency = 0 } };

        using var response = await PostJsonAsync(http, "api/profiles", new { name = "invalid", plan });

        var problem = await AssertProblemAsync(response, HttpStatusCode.BadRequest);
        Assert.Contains("at least 1", problem["errors"]!["Load.Concurrency"]![0]!.GetValue<string>(), StringComparison.Ordinal);
        Assert.Empty((await GetJsonAsync(http, "api/profiles")).AsArray());
    }

    [Theory]
    [InlineData("api/profiles")]
    [InlineData("api/runs")]
    [InlineData("api/runs/import")]
    public async Task Post_MalformedJson_Returns400ProblemSayingWhatIsWrong(string path)
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);

        using var truncated = await http.PostAsync(path, new StringContent("{ \"plan\": { \"load\": ", Encoding.UTF8, "application/json"));
        using var wrongType = await http.PostAsync(path, new StringContent("{ \"plan\": { \"load\": { \"concurrency\": \"many\" } } }", Encoding.UTF8, "application/json"));
        using var empty = await http.PostAsync(path, new StringContent("", Encoding.UTF8, "application/json"));

        var problem = await AssertProblemAsync(truncated, HttpStatusCode.BadRequest);
        Assert.Contains("not valid JSON", problem["title"]!.GetValue<string>(), StringComparison.Ordinal);
        var typeProblem = await AssertProblemAsync(wrongType, HttpStatusCode.BadRequest);
        Assert.Contains("concurrency", typeProblem["errors"]!.ToJsonString(), StringComparison.OrdinalIgnoreCase);
        await AssertProblemAsync(empty, HttpStatusCode.BadRequest);
    }

    [Fact]
    public async Task StartRun_BaselineRunThatDoesNotExist_Returns400NamingTheField_AndQueuesNothing()
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);
        var plan = ShortPlan("bl5", seconds: 2) with { Thresholds = new ThresholdOptions { BaselineRunId = 99999, MinShareOfBaseline = 0.95 } };

        using var response = await PostJsonAsync(http, "api/runs", new { plan });
        using var profile = await PostJsonAsync(http, "api/profiles", new { name = "pt", plan });

        var problem = await AssertProblemAsync(response, HttpStatusCode.BadRequest);
        Assert.StartsWith("Run 99999 does not exist", problem["errors"]!["Thresholds.BaselineRunId"]![0]!.GetValue<string>(), StringComparison.Ordinal);
        Assert.NotNull((await AssertProblemAsync(profile, HttpStatusCode.BadRequest))["errors"]!["Thresholds.BaselineRunId"]);
        Assert.DoesNotContain("bl5", (await GetJsonAsync(http, "api/runs")).ToJsonString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task StartRun_ShortSimulatedPlan_Returns202AndCompletesWithASummary()
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);

        using var response = await PostJsonAsync(http, "api/runs", new { plan = ShortPlan("api run", seconds: 3) });

        Assert.Equal(HttpStatusCode.Accepted, response.StatusCode);
        var location = response.Headers.Location!.OriginalString;
        var id = (await ReadAsync(response))["id"]!.GetValue<long>();
        Assert.Equal($"/api/runs/{id}", location);
        var run = await WaitUntilEndedAsync(http, id);
        Assert.Equal("Completed", run["status"]!.GetValue<string>());
        Assert.True(run["summary"]!["totalOk"]!.GetValue<long>() > 0);
        Assert.NotNull(run["startedAt"]);
        Assert.NotNull(run["endedAt"]);
        Assert.Contains("imulated", run["targetDescription"]!.GetValue<string>(), StringComparison.Ordinal);
        Assert.True(run["environment"]!["processorCount"]!.GetValue<int>() > 0);
        Assert.True(run["secondsRecorded"]!.GetValue<int>() >= 3);

        var page = await GetJsonAsync(http, "api/runs?page=1&pageSize=10&status=completed");
        Assert.Equal(1, page["total"]!.GetValue<int>());
        Assert.Equal(id, page["items"]![0]!["id"]!.GetValue<long>());
        Assert.True(page["items"]![0]!["averageThroughput"]!.GetValue<double>() > 0);
        Assert.Equal(0, (await GetJsonAsync(http, "api/runs?status=Failed"))["total"]!.GetValue<int>());
    }

    [Fact]
    public async Task StartRun_ThreeStageSimulatedPlan_CompletesWithAStageEntryEachWhoseDocumentsAddUp()
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);
        var plan = new RunPlan
        {
            Name = "staged",
            Load = new LoadOptions
            {
                Stages =
                [
                    new LoadStage { DurationSeconds = 1, Concurrency = 2 },
                    new LoadStage { DurationSeconds = 2, Concurrency = 6, Ramp = StageRamp.Linear },
                    new LoadStage { DurationSeconds = 1, Concurrency = 3 },
                ],
            },
            Stop = new StopOptions(),
        };

        using var response = await PostJsonAsync(http, "api/runs", new { plan });

        Assert.Equal(HttpStatusCode.Accepted, response.StatusCode);
        var run = await WaitUntilEndedAsync(http, (await ReadAsync(response))["id"]!.GetValue<long>());
        Assert.True(run["status"]!.GetValue<string>() == "Completed", run.ToJsonString());
        var summary = run["summary"]!;
        var stages = summary["stages"]!.AsArray();
        Assert.Equal(3, stages.Count);
        Assert.Equal(summary["totalOk"]!.GetValue<long>(), stages.Sum(stage => stage!["ok"]!.GetValue<long>()));
        Assert.All(stages, stage => Assert.True(stage!["ok"]!.GetValue<long>() > 0));
        Assert.Equal([0, 1, 3], stages.Select(stage => stage!["firstSecond"]!.GetValue<int>()));
    }

    [Fact]
    public async Task StartRun_FromSavedProfile_RunsThatProfile()
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);
        using var created = await PostJsonAsync(http, "api/profiles", new { name = "saved", plan = ShortPlan("saved", seconds: 2) });
        var profileId = (await ReadAsync(created))["id"]!.GetValue<long>();

        using var response = await PostJsonAsync(http, "api/runs", new { profileId });
        using var missing = await PostJsonAsync(http, "api/runs", new { profileId = 999 });
        using var neither = await PostJsonAsync(http, "api/runs", new { });

        Assert.Equal(HttpStatusCode.Accepted, response.StatusCode);
        var run = await WaitUntilEndedAsync(http, (await ReadAsync(response))["id"]!.GetValue<long>());
        Assert.Equal("Completed", run["status"]!.GetValue<string>());
        Assert.Equal(profileId, run["profileId"]!.GetValue<long>());
        Assert.NotNull((await AssertProblemAsync(missing, HttpStatusCode.BadRequest))["errors"]!["ProfileId"]);
        Assert.NotNull((await AssertProblemAsync(neither, HttpStatusCode.BadRequest))["errors"]!["ProfileId"]);
    }

    [Fact]
    public async Task StartRun_InvalidPlan_Returns400NamingTheFieldAndQueuesNothing()
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);

        using var response = await PostJsonAsync(http, "api/runs", new { plan = ShortPlan("invalid", seconds: 2) with { Load = new LoadOptions { Concurrency = 0 } } });

        var problem = await AssertProblemAsync(response, HttpStatusCode.BadRequest);
        Assert.NotNull(problem["errors"]!["Load.Concurrency"]);
        Assert.Equal(0, (await GetJsonAsync(http, "api/runs"))["total"]!.GetValue<int>());
    }

    [Fact]
    public async Task CancelRun_LongRun_EndsCancelledAndASecondCancelIsAConflict()
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);
        using var started = await PostJsonAsync(http, "api/runs", new { plan = ShortPlan("long", seconds: 120) });
        var id = (await ReadAsync(started))["id"]!.GetValue<long>();
        await WaitForAsync(async () => (await GetJsonAsync(http, $"api/runs/{id}"))["secondsRecorded"]!.GetValue<int>() >= 1, "a second to be recorded");

        using var cancel = await http.PostAsync($"api/runs/{id}/cancel", null);

        Assert.Equal(HttpStatusCode.Accepted, cancel.StatusCode);
        var run = await WaitUntilEndedAsync(http, id);
        Assert.Equal("Cancelled", run["status"]!.GetValue<string>());
        Assert.NotNull(run["summary"]);
        using var again = await http.PostAsync($"api/runs/{id}/cancel", null);
        var conflict = await AssertProblemAsync(again, HttpStatusCode.Conflict);
        Assert.Contains("Cancelled", conflict["detail"]!.GetValue<string>(), StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("api/runs", "{ \"plan\": { \"target\": null } }")]
    [InlineData("api/profiles", "{ \"name\": \"n\", \"plan\": { \"stop\": null } }")]
    [InlineData("api/runs", "{ \"plan\": { \"target\": { \"kind\": 99 } } }")]
    [InlineData("api/runs", "{ \"plan\": { \"load\": { \"model\": 7 } } }")]
    // A number in quotes is no number (the web's defaults read "5" as 5).
    [InlineData("api/runs", "{ \"plan\": { \"load\": { \"concurrency\": \"5\" }, \"stop\": { \"durationSeconds\": 5 } } }")]
    [InlineData("api/profiles", "{ \"name\": \"n\", \"plan\": { \"stop\": { \"durationSeconds\": \"60\" } } }")]
    public async Task Post_NullOrUndefinedChoice_Returns400NotA500(string path, string body)
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);

        using var response = await http.PostAsync(path, new StringContent(body, Encoding.UTF8, "application/json"));

        await AssertProblemAsync(response, HttpStatusCode.BadRequest);
        Assert.Equal(0, (await GetJsonAsync(http, "api/runs"))["total"]!.GetValue<int>());
    }

    [Fact]
    public async Task UnknownRunOrAddress_Returns404Problem()
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);

        foreach (var path in new[] { "api/runs/42", "api/runs/42/export.json", "api/runs/42/export.csv", "api/profiles/42", "api/runs/not-a-number", "api/nothing-here" })
        {
            using var response = await http.GetAsync(path);
            await AssertProblemAsync(response, HttpStatusCode.NotFound);
        }

        using var cancel = await http.PostAsync("api/runs/42/cancel", null);
        await AssertProblemAsync(cancel, HttpStatusCode.NotFound);
        using var badQuery = await http.GetAsync("api/runs?page=zero&status=Sleeping");
        var problem = await AssertProblemAsync(badQuery, HttpStatusCode.BadRequest);
        Assert.NotNull(problem["errors"]!["page"]);
        Assert.NotNull(problem["errors"]!["status"]);
        // A list of statuses is no status (read as the values combined, "Running,Completed" listed the cancelled runs).
        foreach (var status in new[] { "Running,Completed", "Completed,Failed", "1", " 3 " })
        {
            using var badStatus = await http.GetAsync($"api/runs?status={Uri.EscapeDataString(status)}");
            var statusProblem = await AssertProblemAsync(badStatus, HttpStatusCode.BadRequest);
            Assert.Contains("is not a status", statusProblem["errors"]!["status"]![0]!.GetValue<string>(), StringComparison.Ordinal);
        }

        foreach (var sweep in new[] { "-3", "0", "abc", "1e3", "99999999999999999999" })
        {
            using var badSweep = await http.GetAsync($"api/runs?sweep={sweep}");
            var sweepProblem = await AssertProblemAsync(badSweep, HttpStatusCode.BadRequest);
            Assert.Contains("is not a sweep's number", sweepProblem["errors"]!["sweep"]![0]!.GetValue<string>(), StringComparison.Ordinal);
        }
    }

    [Fact]
    [Slow]
    public async Task Thresholds_ReachableAndUnreachableThroughput_PassAndFailInTheApi()
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);
        using var easy = await PostJsonAsync(http, "api/runs", new { plan = ShortPlan("easy", seconds: 2) with { Thresholds = new ThresholdOptions { MinThroughput = 1 } } });
        using var hard = await PostJsonAsync(http, "api/runs", new { plan = ShortPlan("hard", seconds: 2) with { Thresholds = new ThresholdOptions { MinThroughput = 10_000_000 } } });

        var passed = await WaitUntilEndedAsync(http, (await ReadAsync(easy))["id"]!.GetValue<long>());
        var failed = await WaitUntilEndedAsync(http, (await ReadAsync(hard))["id"]!.GetValue<long>());

        Assert.True(passed["verdict"]!["passed"]!.GetValue<bool>(), passed["verdict"]!.ToJsonString());
        Assert.Contains(passed["verdict"]!["checks"]!.AsArray(), c => c!["name"]!.GetValue<string>() == "throughput" && c["passed"]!.GetValue<bool>());
        Assert.False(failed["verdict"]!["passed"]!.GetValue<bool>());
        Assert.Contains(failed["verdict"]!["checks"]!.AsArray(), c => c!["name"]!.GetValue<string>() == "throughput" && !c["passed"]!.GetValue<bool>());
        var list = await GetJsonAsync(http, "api/runs");
        Assert.Equal(["Failed", "Passed"], list["items"]!.AsArray().Select(r => r!["verdict"]!.GetValue<string>()).Order(StringComparer.Ordinal));
    }

    [Fact]
    public async Task OpenApiDocument_ListsRunsProfilesAndFiles()
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);

        var document = await GetJsonAsync(http, "openapi/v1.json");

        var paths = document["paths"]!.AsObject();
        foreach (var path in new[] { "/api/runs", "/api/runs/{id}", "/api/runs/{id}/cancel", "/api/runs/{id}/export.json", "/api/runs/{id}/export.csv", "/api/runs/import", "/api/profiles", "/api/profiles/{id}", "/api/files", "/api/files/{id}", "/api/sweeps", "/api/sweeps/{id}", "/api/sweeps/{id}/cancel", "/api/sweeps/{id}/export.csv", "/api/sweeps/{id}/export.md" })
        {
            Assert.True(paths.ContainsKey(path), $"{path} is missing from {string.Join(", ", paths.Select(p => p.Key))}");
        }

        Assert.NotNull(paths["/api/runs"]!["post"]!["requestBody"]);
        Assert.NotNull(paths["/api/sweeps"]!["post"]!["requestBody"]);
        Assert.DoesNotContain(paths, p => p.Key.Contains("path", StringComparison.Ordinal));
    }

    [Fact]
    [Slow]
    public async Task GetRun_NamesTheClientLimitedSecondsInWordsTheWorstClientSecondAndEveryBucket_WhenTheClientWasStarved()
    {
        await using var app = new BenchWebFactory(ScriptedClientHealth.Settings(), s => ScriptedClientHealth.Replace(s, ScriptedClientHealth.StarvedIn(1, 2)));
        using var http = await app.CreateClientAsync(BenchWebRoles.Runner);
        using var started = await PostJsonAsync(http, "api/runs", new { plan = ShortPlan("starved client", seconds: 3) });

        var summary = (await WaitUntilEndedAsync(http, (await ReadAsync(started))["id"]!.GetValue<long>()))["summary"]!;

        Assert.True(summary["clientBound"]!.GetValue<bool>());
        Assert.Equal(2, summary["clientLimitedSeconds"]!.GetValue<int>());
        var span = Assert.Single(summary["clientLimitedSpans"]!.AsArray())!;
        Assert.Equal("seconds 1–2", span["seconds"]!.GetValue<string>());
        Assert.Equal("HostCpu, SchedulingLag", span["limits"]!.GetValue<string>());
        Assert.StartsWith("the client was starved: scheduling lag p99 180 ms, host CPU 100 %, this process ", span["reason"]!.GetValue<string>(), StringComparison.Ordinal);
        var worst = summary["worstClientSecond"]!;
        Assert.Equal(1, worst["index"]!.GetValue<int>());
        Assert.Equal(180, worst["health"]!["schedulingLagP99Ms"]!.GetValue<double>());
        Assert.StartsWith("the client was starved: ", worst["reason"]!.GetValue<string>(), StringComparison.Ordinal);
        Assert.True(summary["accountsBalance"]!.GetValue<bool>());
        foreach (var bucket in new[] { "totalOffered", "totalSentLate", "totalNotStarted", "totalAbandoned", "totalGivenUpRequests", "perSecondLeftOut" })
        {
            Assert.True(summary[bucket] is not null, bucket);
        }
    }

    [Fact]
    public async Task OpenApiDocument_DescribesTheClientHealthAndBucketsOfARunAndItsSeconds()
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);

        var schemas = (await GetJsonAsync(http, "openapi/v1.json"))["components"]!["schemas"]!;

        var summary = schemas["RunSummary"]!["properties"]!.AsObject();
        foreach (var field in new[] { "clientLimitedSeconds", "clientLimitedSpans", "perSecondLeftOut", "worstClientSecond", "totalOffered", "totalSentLate", "totalNotStarted", "totalAbandoned", "totalGivenUpRequests", "accountsBalance" })
        {
            Assert.True(summary.ContainsKey(field), $"RunSummary lacks {field}");
        }

        var second = schemas["RunExportSecond"]!["properties"]!.AsObject();
        foreach (var field in new[] { "health", "clientLimited", "clientLimitedReason", "sentLate", "notStarted", "abandoned", "givenUpRequests" })
        {
            Assert.True(second.ContainsKey(field), $"RunExportSecond lacks {field}");
        }

        Assert.True(schemas["ClientLimitedSpan"]!["properties"]!.AsObject().ContainsKey("reason"));
    }

    /// <summary>A simulated run that stops after the given seconds.</summary>
    internal static RunPlan ShortPlan(string name, double seconds) =>
        new() { Name = name, Load = new LoadOptions { Concurrency = 4 }, Stop = new StopOptions { DurationSeconds = seconds } };

    internal static Task<HttpResponseMessage> PostJsonAsync(HttpClient http, string path, object body) =>
        http.PostAsync(path, new StringContent(JsonSerializer.Serialize(body, RunPlan.JsonOptions), Encoding.UTF8, "application/json"));

    internal static async Task<JsonNode> ReadAsync(HttpResponseMessage response) =>
        await response.Content.ReadFromJsonAsync<JsonNode>() ?? throw new InvalidOperationException("null body");

    internal static async Task<JsonNode> GetJsonAsync(HttpClient http, string path)
    {
        using var response = await http.GetAsync(path);
        Assert.True(response.IsSuccessStatusCode, $"GET {path}: {(int)response.StatusCode} {await response.Content.ReadAsStringAsync()}");
        return await ReadAsync(response);
    }

    internal static async Task<JsonNode> AssertProblemAsync(HttpResponseMessage response, HttpStatusCode status)
    {
        var body = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == status, $"{response.RequestMessage?.RequestUri}: expected {(int)status}, got {(int)response.StatusCode}: {body}");
        Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
        var problem = JsonNode.Parse(body)!;
        Assert.Equal((int)status, problem["status"]!.GetValue<int>());
        Assert.False(string.IsNullOrWhiteSpace(problem["title"]?.GetValue<string>()));
        return problem;
    }

    internal static async Task<JsonNode> WaitUntilEndedAsync(HttpClient http, long id)
    {
        JsonNode? run = null;
        await WaitForAsync(async () => (run = await GetJsonAsync(http, $"api/runs/{id}"))["status"]!.GetValue<string>() is not ("Queued" or "Running"), $"run {id} to end");
        return run!;
    }

    private static async Task WaitForAsync(Func<Task<bool>> condition, string what)
    {
        var clock = Stopwatch.StartNew();
        while (!await condition())
        {
            if (clock.Elapsed > RunTimeout)
            {
                throw new TimeoutException($"Waited {RunTimeout.TotalSeconds:N0} s for {what}.");
            }

            await Task.Delay(100);
        }
    }
}
