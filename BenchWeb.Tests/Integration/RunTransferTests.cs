using BenchEngine.Targets;
using System.Globalization;
using System.Net;
using System.Text;
using System.Text.Json.Nodes;
using BenchEngine.Metrics;
using BenchEngine.Running;
using BenchWeb.Data;
using BenchWeb.Execution;
using BenchWeb.Guard.Security;
using BenchWeb.Provenance;
using BenchWeb.Tests.Support;
using BenchWeb.Transfer;
using CsvHelper;
using Microsoft.EntityFrameworkCore;
using static BenchWeb.Tests.Integration.RunsApiTests;

namespace BenchWeb.Tests.Integration;

/// <summary>Runs exported by one installation and imported by another, each a real app with its own SQLite file.</summary>
[IntegrationTest]
public sealed class RunTransferTests
{
    [Fact]
    public async Task ExportThenImport_IntoAnotherInstallation_GivesTheSameSummaryAndSecondsShownAsImported()
    {
        await using var source = await DashboardHost.StartAsync();
        await using var target = await DashboardHost.StartAsync();
        using var sourceHttp = await source.CreateClientAsync(BenchWebRoles.Runner);
        using var targetHttp = await target.CreateClientAsync(BenchWebRoles.Runner);
        var sourceId = await CompletedRunAsync(sourceHttp);
        var sourceRun = await GetJsonAsync(sourceHttp, $"api/runs/{sourceId}");
        var exported = await GetTextAsync(sourceHttp, $"api/runs/{sourceId}/export.json");

        using var imported = await targetHttp.PostAsync("api/runs/import", new StringContent(exported, Encoding.UTF8, "application/json"));

        Assert.True(imported.StatusCode == HttpStatusCode.Created, await imported.Content.ReadAsStringAsync());
        var importedId = (await ReadAsync(imported))["id"]!.GetValue<long>();
        Assert.Equal($"/api/runs/{importedId}", imported.Headers.Location?.OriginalString);
        var copy = await GetJsonAsync(targetHttp, $"api/runs/{importedId}");
        Assert.True(JsonNode.DeepEquals(sourceRun["summary"], copy["summary"]), $"{sourceRun["summary"]}\n≠\n{copy["summary"]}");
        Assert.True(JsonNode.DeepEquals(sourceRun["environment"], copy["environment"]));
        Assert.True(JsonNode.DeepEquals(sourceRun["plan"], copy["plan"]));
        foreach (var field in new[] { "status", "queuedAt", "startedAt", "endedAt", "targetDescription", "stopReason", "secondsRecorded" })
        {
            Assert.True(JsonNode.DeepEquals(sourceRun[field], copy[field]), $"{field}: {sourceRun[field]} ≠ {copy[field]}");
        }

        Assert.NotNull(copy["importedAt"]);
        Assert.Null(sourceRun["importedAt"]);
        Assert.Contains($"run #{sourceId}, exported ", copy["importedFrom"]!.GetValue<string>(), StringComparison.Ordinal);
        var reExported = JsonNode.Parse(await GetTextAsync(targetHttp, $"api/runs/{importedId}/export.json"))!;
        Assert.True(JsonNode.DeepEquals(JsonNode.Parse(exported)!["seconds"], reExported["seconds"]), "the seconds differ after the import");
        var headline = (await GetJsonAsync(targetHttp, "api/runs"))["items"]![0]!;
        Assert.Equal(sourceRun["summary"]!["averageThroughput"]!.GetValue<double>(), headline["averageThroughput"]!.GetValue<double>());
        Assert.NotNull(headline["importedAt"]);
    }

    [Fact]
    [Slow]
    public async Task ExportThenImport_ARunWhoseClientWasStarved_KeepsEverySecondsHealthAndTheSameClientLimitedSpans()
    {
        await using var source = new BenchWebFactory(ScriptedClientHealth.Settings(), s => ScriptedClientHealth.Replace(s, ScriptedClientHealth.StarvedIn(1, 2)));
        await using var target = await DashboardHost.StartAsync();
        using var sourceHttp = await source.CreateClientAsync(BenchWebRoles.Runner);
        using var targetHttp = await target.CreateClientAsync(BenchWebRoles.Runner);
        var sourceId = await CompletedRunAsync(sourceHttp, seconds: 3);
        var sourceRun = await GetJsonAsync(sourceHttp, $"api/runs/{sourceId}");
        var exported = await GetTextAsync(sourceHttp, $"api/runs/{sourceId}/export.json");

        using var imported = await targetHttp.PostAsync("api/runs/import", new StringContent(exported, Encoding.UTF8, "application/json"));

        Assert.True(imported.StatusCode == HttpStatusCode.Created, await imported.Content.ReadAsStringAsync());
        var importedId = (await ReadAsync(imported))["id"]!.GetValue<long>();
        var copy = await GetJsonAsync(targetHttp, $"api/runs/{importedId}");
        Assert.True(JsonNode.DeepEquals(sourceRun["summary"], copy["summary"]), $"{sourceRun["summary"]}\n≠\n{copy["summary"]}");
        var reExported = JsonNode.Parse(await GetTextAsync(targetHttp, $"api/runs/{importedId}/export.json"))!;
        Assert.True(JsonNode.DeepEquals(JsonNode.Parse(exported)!["seconds"], reExported["seconds"]), "the seconds differ after the import");

        var seconds = reExported["seconds"]!.AsArray();
        Assert.All(seconds, s => Assert.NotNull(s!["health"]));
        Assert.Equal([false, true, true], seconds.Take(3).Select(s => s!["clientLimited"]!.GetValue<bool>()));
        Assert.Equal(100, seconds[1]!["health"]!["hostCpuPercent"]!.GetValue<double>());
        Assert.Equal("HostCpu, SchedulingLag", seconds[2]!["health"]!["limits"]!.GetValue<string>());
        Assert.StartsWith("the client was starved: scheduling lag p99 180 ms, host CPU 100 %, this process ", seconds[1]!["clientLimitedReason"]!.GetValue<string>(), StringComparison.Ordinal);
        Assert.Equal("", seconds[0]!["clientLimitedReason"]!.GetValue<string>());

        // The imported run's summary, computed again from its stored seconds, has the spans the run had, in the same words.
        var recomputed = PartialSummary.FromSeconds(await target.SecondsAsync(importedId), new SummaryOptions());
        var span = Assert.Single(recomputed.ClientLimitedSpans);
        Assert.Equal((1, 2), (span.FirstSecond, span.LastSecond));
        var sourceSpan = Assert.Single(sourceRun["summary"]!["clientLimitedSpans"]!.AsArray())!;
        Assert.Equal(sourceSpan["reason"]!.GetValue<string>(), span.Reason);
        Assert.Equal(sourceRun["summary"]!["clientLimitedSeconds"]!.GetValue<int>(), recomputed.ClientLimitedSeconds);
    }

    [Fact]
    public async Task Import_DocumentWithHealthAndEveryBucket_KeepsThemAndExportsThemUnchanged()
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);
        var document = WithHealthAndBuckets(Document());
        var sent = JsonNode.Parse(JsonSerializer(document))!;

        using var response = await PostJsonAsync(http, "api/runs/import", document);

        Assert.True(response.StatusCode == HttpStatusCode.Created, await response.Content.ReadAsStringAsync());
        var id = (await ReadAsync(response))["id"]!.GetValue<long>();
        var exported = JsonNode.Parse(await GetTextAsync(http, $"api/runs/{id}/export.json"))!;
        Assert.True(JsonNode.DeepEquals(sent["seconds"], exported["seconds"]), $"{sent["seconds"]}\n≠\n{exported["seconds"]}");
        Assert.True(JsonNode.DeepEquals(sent["summary"], exported["summary"]));
        var csvText = await GetTextAsync(http, $"api/runs/{id}/export.csv");
        using var csv = new CsvReader(new StringReader(csvText), CultureInfo.InvariantCulture);
        var rows = csv.GetRecords<dynamic>().Cast<IDictionary<string, object>>().ToList();
        Assert.Equal(["3", "3", "3"], rows.Select(r => (string)r["sent_late"]));
        Assert.Equal(["0", "0", "4"], rows.Select(r => (string)r["not_started"]));
        Assert.Equal(["0", "0", "2"], rows.Select(r => (string)r["abandoned"]));
        Assert.Equal(["0", "1", "0"], rows.Select(r => (string)r["given_up_requests"]));
        Assert.Equal(["False", "True", "False"], rows.Select(r => (string)r["client_limited"]));
        Assert.StartsWith("the client was starved: scheduling lag p99 180 ms, host CPU 100 %", (string)rows[1]["client_limited_reason"], StringComparison.Ordinal);
        Assert.Equal("HostCpu, SchedulingLag", rows[1]["client_limits"]);
        Assert.Equal(["20", "100", "20"], rows.Select(r => (string)r["host_cpu_percent"]));
        Assert.Equal(["0.4", "180", "0.4"], rows.Select(r => (string)r["sched_lag_p99_ms"]));
        Assert.Equal("12", rows[1]["thread_pool_queue_max"]);
        Assert.Equal("1500", rows[1]["available_memory_mb"]);
    }

    [Fact]
    public async Task Import_AnExportWrittenBeforeClientHealth_IsStoredWithoutHealthAndWithEmptyBuckets()
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);

        using var response = await http.PostAsync("api/runs/import", new StringContent(EarlierExport(), Encoding.UTF8, "application/json"));

        Assert.True(response.StatusCode == HttpStatusCode.Created, await response.Content.ReadAsStringAsync());
        var id = (await ReadAsync(response))["id"]!.GetValue<long>();
        var run = await GetJsonAsync(http, $"api/runs/{id}");
        Assert.Empty(run["summary"]!["clientLimitedSpans"]!.AsArray());
        Assert.Null(run["summary"]!["worstClientSecond"]);
        var seconds = JsonNode.Parse(await GetTextAsync(http, $"api/runs/{id}/export.json"))!["seconds"]!.AsArray();
        Assert.All(seconds, s => Assert.Null(s!["health"]));
        Assert.All(seconds, s => Assert.Equal(0, s!["notStarted"]!.GetValue<long>() + s["sentLate"]!.GetValue<long>() + s["abandoned"]!.GetValue<long>() + s["givenUpRequests"]!.GetValue<long>()));

        // Before client health, a second at 85 % of this process's CPU or more was the client's: it still is, in words.
        Assert.Equal([false, true, false], seconds.Select(s => s!["clientLimited"]!.GetValue<bool>()));
        Assert.Equal("the client was busy: this process 92 %", seconds[1]!["clientLimitedReason"]!.GetValue<string>());
        var csvText = await GetTextAsync(http, $"api/runs/{id}/export.csv");
        using var csv = new CsvReader(new StringReader(csvText), CultureInfo.InvariantCulture);
        var rows = csv.GetRecords<dynamic>().Cast<IDictionary<string, object>>().ToList();
        Assert.All(rows, r => Assert.Equal("", r["host_cpu_percent"]));
        Assert.All(rows, r => Assert.Equal("", r["sched_lag_p99_ms"]));
    }

    public static TheoryData<string, string> HostileFigures() => new()
    {
        { "host CPU over 100 %", "Seconds[1].Health.HostCpuPercent" },
        { "scheduling lag NaN", "Seconds[0].Health.SchedulingLagP99Ms" },
        { "GC pause infinite", "Seconds[2].Health.GcPauseMs" },
        { "negative threads", "Seconds[0].Health.ThreadPoolThreads" },
        { "an exabyte and more free", "Seconds[0].Health.AvailableMemoryMb" },
        { "a bound that does not exist", "Seconds[1].Health.Limits" },
        { "negative sent late", "Seconds[1].SentLate" },
        { "a trillion and one not started", "Seconds[2].NotStarted" },
        { "process CPU over 100 %", "Seconds[0].ClientCpuPercent" },
        { "elapsed beyond any run", "Seconds[2].ElapsedSeconds" },
        { "latency NaN", "Seconds[1].LatencyP99Ms" },
        { "negative abandoned total", "Summary.TotalAbandoned" },
        { "a span its seconds do not have", "Summary.ClientLimitedSpans" },
        { "the span's words changed", "Summary.ClientLimitedSpans" },
        { "worst second out of the run", "Summary.WorstClientSecond.Index" },
        { "more client-limited seconds than seconds", "Summary.ClientLimitedSeconds" },
        { "throttled total not its seconds' sum", "Summary.TotalThrottled" },
        { "issued total not its seconds' sum", "Summary.TotalIssued" },
        { "errors by status not its seconds'", "Summary.ErrorsByStatus" },
        { "request units a second not its seconds'", "Summary.RequestUnitsPerSecond" },
        { "throughput not its documents over its time", "Summary.AverageThroughput" },
        { "highest client CPU not its seconds'", "Summary.MaxClientCpuPercent" },
        { "cost of the run not its month's share", "Summary.EstimatedCostOfRun" },
        { "p50 above p99", "Summary.Latency.P99Ms" },
        { "mean above the maximum", "Summary.Latency.MeanMs" },
        { "a second ending before the one before it", "Seconds[1].ElapsedSeconds" },
        { "a service badged as a model", "TargetIsModel" },
        { "a control character in the environment", "Environment.machineName" },
        { "an account key pasted as the secret's name", "Plan.Target.Cosmos.KeySecret" },
        { "a second's p50 above its p99", "Seconds[1].LatencyP99Ms" },
        { "a steady window whose first second comes after its last", "Summary.SteadyState" },
        { "a connection string in the metadata", "Metadata.commit" },
    };

    [Theory]
    [MemberData(nameof(HostileFigures))]
    public void Validate_HostileClientFigureOrBucket_IsRefusedNamingTheField(string change, string field)
    {
        var document = WithHealthAndBuckets(Document());
        var seconds = document.Seconds.ToList();
        RunExportSecond Health(int i, Func<ClientHealth, ClientHealth> edit) => seconds[i] with { Health = edit(seconds[i].Health!) };
        var summary = document.Summary!;
        document = change switch
        {
            "host CPU over 100 %" => document with { Seconds = [seconds[0], Health(1, h => h with { HostCpuPercent = 150 }), seconds[2]] },
            "scheduling lag NaN" => document with { Seconds = [Health(0, h => h with { SchedulingLagP99Ms = double.NaN }), seconds[1], seconds[2]] },
            "GC pause infinite" => document with { Seconds = [seconds[0], seconds[1], Health(2, h => h with { GcPauseMs = double.PositiveInfinity })] },
            "negative threads" => document with { Seconds = [Health(0, h => h with { ThreadPoolThreads = -1 }), seconds[1], seconds[2]] },
            "an exabyte and more free" => document with { Seconds = [Health(0, h => h with { AvailableMemoryMb = long.MaxValue }), seconds[1], seconds[2]] },
            "a bound that does not exist" => document with { Seconds = [seconds[0], Health(1, h => h with { Limits = (ClientLimitKinds)1024 }), seconds[2]] },
            "negative sent late" => document with { Seconds = [seconds[0], seconds[1] with { SentLate = -1 }, seconds[2]] },
            "a trillion and one not started" => document with { Seconds = [seconds[0], seconds[1], seconds[2] with { NotStarted = 1_000_000_000_001 }] },
            "process CPU over 100 %" => document with { Seconds = [seconds[0] with { ClientCpuPercent = 101 }, seconds[1], seconds[2]] },
            "elapsed beyond any run" => document with { Seconds = [seconds[0], seconds[1], seconds[2] with { ElapsedSeconds = 1e300 }] },
            "latency NaN" => document with { Seconds = [seconds[0], seconds[1] with { LatencyP99Ms = double.NaN }, seconds[2]] },
            "negative abandoned total" => document with { Summary = summary with { TotalAbandoned = -1 } },
            "a span its seconds do not have" => document with { Summary = summary with { ClientLimitedSpans = [.. summary.ClientLimitedSpans, summary.ClientLimitedSpans[0] with { FirstSecond = 2, LastSecond = 2 }] } },
            "the span's words changed" => document with { Summary = summary with { ClientLimitedSpans = [summary.ClientLimitedSpans[0] with { Reason = "the service was slow" }] } },
            "worst second out of the run" => document with { Summary = summary with { WorstClientSecond = summary.WorstClientSecond! with { Index = 99 } } },
            "more client-limited seconds than seconds" => document with { Summary = summary with { ClientLimitedSeconds = 4 } },
            "throttled total not its seconds' sum" => document with { Summary = summary with { TotalThrottled = 5 } },
            "issued total not its seconds' sum" => document with { Summary = summary with { TotalIssued = 1 } },
            "errors by status not its seconds'" => document with { Summary = summary with { ErrorsByStatus = new Dictionary<int, long> { [500] = 1 } } },
            "request units a second not its seconds'" => document with { Summary = summary with { RequestUnitsPerSecond = 123 } },
            "throughput not its documents over its time" => document with { Summary = summary with { AverageThroughput = 1_000 } },
            "highest client CPU not its seconds'" => document with { Summary = summary with { MaxClientCpuPercent = 5 } },
            "cost of the run not its month's share" => document with { Summary = summary with { EstimatedCostOfRun = 9_999, EstimatedCostPerMonth = 584 } },
            "p50 above p99" => document with { Summary = summary with { Latency = new LatencySummary { Count = 300, P50Ms = 900, P99Ms = 650, MaxMs = 700 } } },
            "mean above the maximum" => document with { Summary = summary with { Latency = new LatencySummary { Count = 300, MeanMs = 800, P50Ms = 5, MaxMs = 700 } } },
            "a second ending before the one before it" => document with { Seconds = [seconds[0], seconds[1] with { ElapsedSeconds = 0.5 }, seconds[2]] },
            "a service badged as a model" => document with { TargetKind = TargetKind.CosmosSql, Plan = document.Plan! with { Target = new TargetOptions { Kind = TargetKind.CosmosSql, Cosmos = new CosmosOptions { Endpoint = "https://acme.documents.azure.com:443/", KeySecret = "COSMOS_KEY" } } } },
            "a control character in the environment" => document with { Environment = document.Environment! with { MachineName = "m\u0000x" } },
            "an account key pasted as the secret's name" => document with { TargetKind = TargetKind.CosmosSql, TargetIsModel = false, Plan = document.Plan! with { Target = new TargetOptions { Kind = TargetKind.CosmosSql, Cosmos = new CosmosOptions { Endpoint = "https://acme.documents.azure.com:443/", KeySecret = "AccountEndpoint=https://evil.example/;AccountKey=C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==;" } } } },
            "a second's p50 above its p99" => document with { Seconds = [seconds[0], seconds[1] with { LatencyP50Ms = 900, LatencyP95Ms = null, LatencyP99Ms = 600, LatencyMaxMs = 950 }, seconds[2]] },
            "a steady window whose first second comes after its last" => document with { Summary = summary with { SteadyState = new SteadyStateWindow { FirstSecond = 2, LastSecond = 0 } } },
            "a connection string in the metadata" => document with { Metadata = new RunMetadata([KeyValuePair.Create("commit", "DefaultEndpointsProtocol=https;AccountName=a;AccountKey=Zm9vYmFyYmF6cXV4;EndpointSuffix=core.windows.net")]) },
            _ => throw new ArgumentOutOfRangeException(nameof(change)),
        };

        var errors = RunTransfer.Validate(document);

        Assert.True(errors.Any(e => e.Field == field), $"{change}: {string.Join("; ", errors)}");
    }

    [Fact]
    public async Task Import_NaNAsAClientFigure_Returns400NamingTheFieldAndStoresNothing()
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);
        var document = JsonNode.Parse(JsonSerializer(WithHealthAndBuckets(Document())))!;
        document["seconds"]![1]!["health"]!["schedulingLagP99Ms"] = "NaN";

        using var response = await http.PostAsync("api/runs/import", new StringContent(document.ToJsonString(), Encoding.UTF8, "application/json"));

        var problem = await AssertProblemAsync(response, HttpStatusCode.BadRequest);
        Assert.True(problem["errors"]!["Seconds[1].Health.SchedulingLagP99Ms"] is not null, problem["errors"]!.ToJsonString());
        Assert.Equal(0, (await GetJsonAsync(http, "api/runs"))["total"]!.GetValue<int>());
    }

    public static TheoryData<string, string, string> HostileFiles() => new()
    {
        { "seconds[1].ok", "9223372036854775807", "Seconds[1].Ok" },
        { "seconds[1].ok", "-1", "Seconds[1].Ok" },
        { "seconds[0].latencyP50Ms", "\"Infinity\"", "Seconds[0].LatencyP50Ms" },
        { "summary.latency.p99Ms", "\"NaN\"", "Summary.Latency.P99Ms" },
        { "summary.averageThroughput", "\"NaN\"", "Summary.AverageThroughput" },
        { "seconds[2].requestUnits", "1e308", "Seconds[2].RequestUnits" },
        { "provisionedRequestUnits", "1e308", "ProvisionedRequestUnits" },
        { "summary.totalOk", "9223372036854775807", "Summary.TotalOk" },
        { "endedAt", "\"2026-03-01T13:00:00Z\"", "EndedAt" },
        { "startedAt", "\"2030-01-01T00:00:00Z\"", "StartedAt" },
        // Ended a second after it started, but measured three: the times do not fit the figures.
        { "endedAt", "\"2026-03-01T14:00:01Z\"", "Summary.Elapsed" },
    };

    [Theory]
    [MemberData(nameof(HostileFiles))]
    public async Task Import_HostileFigureOrTime_Returns400NamingTheFieldAndStoresNothing(string path, string json, string field)
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);
        var document = JsonNode.Parse(JsonSerializer(Document()))!;
        var parts = path.Split('.');
        var parent = parts[..^1].Aggregate(document, (node, part) => part.EndsWith(']')
            ? node[part[..part.IndexOf('[')]]![int.Parse(part[(part.IndexOf('[') + 1)..^1], System.Globalization.CultureInfo.InvariantCulture)]!
            : node[part]!);
        parent[parts[^1]] = JsonNode.Parse(json);
        if (path == "startedAt")
        {
            // In the future as a whole: queued, started and ended in 2030.
            document["queuedAt"] = JsonNode.Parse(json);
            document["endedAt"] = JsonNode.Parse("\"2030-01-01T00:00:03Z\"");
        }

        using var response = await http.PostAsync("api/runs/import", new StringContent(document.ToJsonString(), Encoding.UTF8, "application/json"));

        var problem = await AssertProblemAsync(response, HttpStatusCode.BadRequest);
        Assert.True(problem["errors"]![field] is not null, $"{path} = {json}: {problem["errors"]!.ToJsonString()}");
        Assert.Equal(0, (await GetJsonAsync(http, "api/runs"))["total"]!.GetValue<int>());
    }

    [Fact]
    public void Validate_DocumentWithHealthAndEveryBucket_HasNoErrors() => Assert.Empty(RunTransfer.Validate(WithHealthAndBuckets(Document())));

    [Fact]
    public async Task ExportCsv_HasOneRowPerSecondAndTheOkColumnAddsUpToTheTotal()
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);
        var id = await CompletedRunAsync(http);
        var run = await GetJsonAsync(http, $"api/runs/{id}");

        using var response = await http.GetAsync($"api/runs/{id}/export.csv");

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("text/csv", response.Content.Headers.ContentType?.MediaType);
        var text = await response.Content.ReadAsStringAsync();
        var lines = text.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.Equal(run["secondsRecorded"]!.GetValue<int>() + 1, lines.Length);
        using var csv = new CsvReader(new StringReader(text), CultureInfo.InvariantCulture);
        var rows = csv.GetRecords<dynamic>().Cast<IDictionary<string, object>>().ToList();
        Assert.Equal(RunTransfer.CsvColumns, rows[0].Keys);
        Assert.Equal(run["summary"]!["totalOk"]!.GetValue<long>(), rows.Sum(r => long.Parse((string)r["ok"], CultureInfo.InvariantCulture)));
        Assert.Equal(Enumerable.Range(0, rows.Count), rows.Select(r => int.Parse((string)r["second"], CultureInfo.InvariantCulture)));
        // A rate for every full second; a last second shorter than half a second has none (its counts are there).
        Assert.All(rows, r =>
        {
            var duration = double.Parse((string)r["duration_s"], NumberStyles.Float, CultureInfo.InvariantCulture);
            Assert.Equal(duration < 0.5, ((string)r["ok_per_s"]).Length == 0);
        });
    }

    [Fact]
    public async Task Import_ConsistentDocument_IsStoredWithItsNotesTagsAndVerdict()
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);

        using var response = await PostJsonAsync(http, "api/runs/import", Document());

        Assert.True(response.StatusCode == HttpStatusCode.Created, await response.Content.ReadAsStringAsync());
        var run = await ReadAsync(response);
        Assert.Equal("Completed", run["status"]!.GetValue<string>());
        Assert.Equal("gateway test", run["notes"]!.GetValue<string>());
        Assert.Equal(["gateway", "2 cores"], run["tags"]!.AsArray().Select(t => t!.GetValue<string>()));
        Assert.True(run["verdict"]!["passed"]!.GetValue<bool>());
        Assert.Equal(3, run["secondsRecorded"]!.GetValue<int>());
        Assert.Equal("build-agent-7, run #12, exported 2026-03-01 14:05 UTC", run["importedFrom"]!.GetValue<string>());
        Assert.Equal(100, (await GetJsonAsync(http, "api/runs"))["items"]![0]!["averageThroughput"]!.GetValue<double>());
    }

    [Fact]
    public async Task Import_KeepsNoCredentialInTheEngineTextsItShows()
    {
        // The stop reason, failure and target description are shown in the run's header and exported again: a key written
        // into them elsewhere (by hand, or quoted by an SDK) is redacted; a control character is refused.
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);
        const string Key = "Zm9vYmFyZm9vYmFyZm9vYmFy";
        var document = Document() with
        {
            StopReason = $"ran for 10 s; DefaultEndpointsProtocol=https;AccountName=x;AccountKey={Key};EndpointSuffix=core.windows.net",
            TargetDescription = $"Blob Storage https://x.blob.core.windows.net/?sv=2020&sig={Key}",
        };

        using var response = await PostJsonAsync(http, "api/runs/import", document);

        Assert.True(response.StatusCode == HttpStatusCode.Created, await response.Content.ReadAsStringAsync());
        var id = (await ReadAsync(response))["id"]!.GetValue<long>();
        var export = await http.GetStringAsync($"api/runs/{id}/export.json");
        Assert.DoesNotContain(Key, export, StringComparison.Ordinal);
        Assert.Contains("AccountKey=[redacted]", export, StringComparison.Ordinal);
        Assert.Contains("sig=[redacted]", export, StringComparison.Ordinal);
        Assert.DoesNotContain(Key, await http.GetStringAsync($"runs/{id}"), StringComparison.Ordinal);

        using var unprintable = await PostJsonAsync(http, "api/runs/import", Document() with { RunId = 13, StopReason = "ran for 10 s\u001b[2J" });
        Assert.Equal(HttpStatusCode.BadRequest, unprintable.StatusCode);
    }

    [Theory]
    [InlineData("second removed", "Seconds[1].Index")]
    [InlineData("total changed", "Summary.TotalOk")]
    [InlineData("newer format", "FormatVersion")]
    [InlineData("still running", "Status")]
    [InlineData("invalid plan", "Plan.Load.Concurrency")]
    [InlineData("no plan", "Plan")]
    [InlineData("half a window", "SteadyStateFirst")]
    [InlineData("counts that overflow", "Seconds[0].Ok")]
    [InlineData("negative unsent", "Seconds[1]")]
    [InlineData("negative latency", "Seconds[0]")]
    [InlineData("negative given up", "Summary")]
    [InlineData("negative abandoned", "AbandonedRequests")]
    public async Task Import_TamperedDocument_Returns400NamingTheFieldAndStoresNothing(string change, string field)
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);
        var document = Document();
        document = change switch
        {
            "second removed" => document with { Seconds = [document.Seconds[0], document.Seconds[2]] },
            "total changed" => document with { Summary = document.Summary! with { TotalOk = 301 } },
            "newer format" => document with { FormatVersion = 2 },
            "still running" => document with { Status = RunStatus.Running },
            "invalid plan" => document with { Plan = document.Plan! with { Load = new LoadOptions { Concurrency = 0 } } },
            "no plan" => document with { Plan = null },
            "half a window" => document with { SteadyStateFirst = 0, SteadyStateLast = null },
            "counts that overflow" => document with { Seconds = [.. document.Seconds.Select(s => s with { Ok = long.MaxValue })] },
            "negative unsent" => document with { Seconds = [document.Seconds[0], document.Seconds[1] with { Dropped = -5, GivenUp = -1 }, document.Seconds[2]] },
            "negative latency" => document with { Seconds = [document.Seconds[0] with { LatencyP99Ms = -3 }, document.Seconds[1], document.Seconds[2]] },
            "negative given up" => document with { Summary = document.Summary! with { TotalGivenUp = -7, TotalDropped = -2 } },
            "negative abandoned" => document with { AbandonedRequests = -3 },
            _ => throw new ArgumentOutOfRangeException(nameof(change)),
        };

        using var response = await PostJsonAsync(http, "api/runs/import", document);

        var problem = await AssertProblemAsync(response, HttpStatusCode.BadRequest);
        Assert.True(problem["errors"]![field] is not null, $"{change}: {problem["errors"]}");
        Assert.Equal(0, (await GetJsonAsync(http, "api/runs"))["total"]!.GetValue<int>());
    }

    [Theory]
    [InlineData("summary", "latency")]
    [InlineData("plan", "target")]
    [InlineData("plan", "load")]
    public async Task Import_NullWhereAValueBelongs_Returns400NotA500(string parent, string property)
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);
        var document = System.Text.Json.Nodes.JsonNode.Parse(System.Text.Json.JsonSerializer.Serialize(Document(), RunPlan.JsonOptions))!;
        document[parent]![property] = null;

        using var response = await http.PostAsync("api/runs/import", new StringContent(document.ToJsonString(), System.Text.Encoding.UTF8, "application/json"));

        await AssertProblemAsync(response, HttpStatusCode.BadRequest);
        Assert.Equal(0, (await GetJsonAsync(http, "api/runs"))["total"]!.GetValue<int>());
    }

    [Fact]
    public async Task Import_SameRunTwice_IsRefusedWith409NamingTheRunItBecame_EvenFromAnotherExport()
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);
        using var first = await PostJsonAsync(http, "api/runs/import", Document());
        var firstId = (await ReadAsync(first))["id"]!.GetValue<long>();

        // The same run, exported again later (or by the installation it was imported into): the same run all the same.
        using var again = await PostJsonAsync(http, "api/runs/import", Document() with { ExportedAt = DateTimeOffset.UnixEpoch.AddYears(60), ExportedFrom = "elsewhere", Notes = "edited" });

        var problem = await AssertProblemAsync(again, HttpStatusCode.Conflict);
        Assert.Contains($"imported already, as run #{firstId}", problem["detail"]!.GetValue<string>(), StringComparison.Ordinal);
        Assert.Equal(firstId, problem["runId"]!.GetValue<long>());
        Assert.Equal(1, (await GetJsonAsync(http, "api/runs"))["total"]!.GetValue<int>());

        // Another run of the same installation (another number) is another run.
        using var other = await PostJsonAsync(http, "api/runs/import", Document() with { RunId = 13 });
        Assert.Equal(HttpStatusCode.Created, other.StatusCode);
    }

    [Fact]
    public async Task Import_ExportOfARunOfThisInstallation_IsRefusedWith409NamingThatRun()
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);
        var ranHere = await SeededRuns.AddAsync(host.Get<IDbContextFactory<BenchDbContext>>(), SeededRuns.Plan(TargetKind.Simulated, "ran here"), SeededRuns.Seconds(5, 1_000, 6));
        using var export = await http.GetAsync($"api/runs/{ranHere}/export.json");
        Assert.Equal(HttpStatusCode.OK, export.StatusCode);
        var exported = await export.Content.ReadAsStringAsync();

        using var again = await http.PostAsync("api/runs/import", new StringContent(exported, Encoding.UTF8, "application/json"));

        var problem = await AssertProblemAsync(again, HttpStatusCode.Conflict);
        Assert.Equal("This run is this installation's own.", problem["title"]!.GetValue<string>());
        Assert.Contains($"This run ran here: it is run #{ranHere}", problem["detail"]!.GetValue<string>(), StringComparison.Ordinal);
        Assert.Equal(ranHere, problem["runId"]!.GetValue<long>());
        Assert.Equal(1, (await GetJsonAsync(http, "api/runs"))["total"]!.GetValue<int>());

        // Back from another installation it was imported into, under that one's number: the same run all the same.
        var roundTrip = System.Text.Json.Nodes.JsonNode.Parse(exported)!;
        roundTrip["runId"] = ranHere + 41;
        roundTrip["importedFrom"] = "this installation, run #" + ranHere;
        using var back = await http.PostAsync("api/runs/import", new StringContent(roundTrip.ToJsonString(), Encoding.UTF8, "application/json"));
        Assert.Contains($"This run ran here: it is run #{ranHere}", (await AssertProblemAsync(back, HttpStatusCode.Conflict))["detail"]!.GetValue<string>(), StringComparison.Ordinal);

        // Another installation's run with the same number started at another time is another run.
        var elsewhere = System.Text.Json.Nodes.JsonNode.Parse(exported)!;
        elsewhere["startedAt"] = DateTimeOffset.Parse(elsewhere["startedAt"]!.GetValue<string>(), System.Globalization.CultureInfo.InvariantCulture).AddMinutes(-5).ToString("O", System.Globalization.CultureInfo.InvariantCulture);
        elsewhere["queuedAt"] = DateTimeOffset.Parse(elsewhere["queuedAt"]!.GetValue<string>(), System.Globalization.CultureInfo.InvariantCulture).AddMinutes(-5).ToString("O", System.Globalization.CultureInfo.InvariantCulture);
        using var other = await http.PostAsync("api/runs/import", new StringContent(elsewhere.ToJsonString(), Encoding.UTF8, "application/json"));
        Assert.Equal(HttpStatusCode.Created, other.StatusCode);
        var otherId = (await ReadAsync(other))["id"]!.GetValue<long>();

        // That imported run exported from here and imported here again: the run it became.
        using var reexport = await http.GetAsync($"api/runs/{otherId}/export.json");
        using var again2 = await http.PostAsync("api/runs/import", new StringContent(await reexport.Content.ReadAsStringAsync(), Encoding.UTF8, "application/json"));
        Assert.Contains($"imported already, as run #{otherId}", (await AssertProblemAsync(again2, HttpStatusCode.Conflict))["detail"]!.GetValue<string>(), StringComparison.Ordinal);
        Assert.Equal(2, (await GetJsonAsync(http, "api/runs"))["total"]!.GetValue<int>());
    }

    [Fact]
    public async Task Import_CraftedDocument_NeverEchoesAServerFileOrItsPath()
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);
        var secretFile = Path.Combine(Path.GetTempPath(), $"benchweb-secret-{Guid.NewGuid():N}.csv");
        await File.WriteAllTextAsync(secretFile, "Origin,Dest\nTOP-SECRET-ROW,LAX\n");
        try
        {
            var document = Document();
            var asPath = document with { Plan = document.Plan! with { Workload = new BenchEngine.Workloads.WorkloadOptions { Shape = BenchEngine.Workloads.DocumentShape.CsvFile, CsvPath = secretFile } } };
            var asUpload = document with { Plan = document.Plan! with { Workload = new BenchEngine.Workloads.WorkloadOptions { Shape = BenchEngine.Workloads.DocumentShape.CsvFile, CsvFileId = 987_654 } } };
            var asText = JsonSerializer(document).Replace("\"elsewhere\"", "\"elsewhere\" \"" + secretFile + "\"", StringComparison.Ordinal);

            using var byPath = await PostJsonAsync(http, "api/runs/import", asPath);
            using var byUpload = await PostJsonAsync(http, "api/runs/import", asUpload);
            using var broken = await http.PostAsync("api/runs/import", new StringContent(asText, Encoding.UTF8, "application/json"));

            foreach (var response in new[] { byPath, byUpload, broken })
            {
                var problem = await AssertProblemAsync(response, HttpStatusCode.BadRequest);
                var text = problem.ToJsonString();
                Assert.DoesNotContain("TOP-SECRET", text, StringComparison.Ordinal);
                Assert.DoesNotContain(Path.GetFileName(secretFile), text, StringComparison.Ordinal);
                Assert.DoesNotContain(Path.GetTempPath().TrimEnd('/'), text, StringComparison.Ordinal);
            }

            Assert.Equal(0, (await GetJsonAsync(http, "api/runs"))["total"]!.GetValue<int>());
        }
        finally
        {
            File.Delete(secretFile);
        }
    }

    [Fact]
    public async Task Import_MalformedJson_NamesTheLineAndColumnInPlainWords()
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);

        using var response = await http.PostAsync("api/runs/import", new StringContent("{\n  \"formatVersion\": 1,\n  \"runId\": 12 13\n}", Encoding.UTF8, "application/json"));

        var problem = await AssertProblemAsync(response, HttpStatusCode.BadRequest);
        var message = problem["errors"]!.AsObject().Single().Value![0]!.GetValue<string>();
        Assert.StartsWith("Line 3, column 15 of the document: ", message, StringComparison.Ordinal);
        Assert.DoesNotContain("LineNumber", message, StringComparison.Ordinal);
        Assert.DoesNotContain("BytePositionInLine", message, StringComparison.Ordinal);
    }

    [Fact]
    public void ImportKeyOf_AHeadlessRun_IsItsMachineStartAndTarget_NeverANumberedRunsKey()
    {
        var headless = Document() with { RunId = null };

        var key = RunTransfer.ImportKeyOf(headless);

        Assert.Equal(key, RunTransfer.ImportKeyOf(headless with { ExportedAt = headless.ExportedAt.AddDays(1), Notes = "edited" }));
        Assert.NotEqual(key, RunTransfer.ImportKeyOf(headless with { ExportedFrom = "build-agent-8" }));
        Assert.NotEqual(key, RunTransfer.ImportKeyOf(headless with { StartedAt = headless.StartedAt!.Value.AddTicks(1) }));
        Assert.NotEqual(key, RunTransfer.ImportKeyOf(Document()));
        Assert.True(RunTransfer.ImportKeyOf(headless with { ExportedFrom = new string('m', 200) }).Length <= 200);
        Assert.Equal("build-agent-7, a headless run, written 2026-03-01 14:05 UTC", RunTransfer.DescribeOrigin(headless));
    }

    private static string JsonSerializer(RunExport document) => System.Text.Json.JsonSerializer.Serialize(document, RunPlan.JsonOptions);

    [Fact]
    public void Validate_ConsistentDocument_HasNoErrors() => Assert.Empty(RunTransfer.Validate(Document()));

    [Fact]
    public void Validate_StagesThatDoNotAddUpOrAreNegative_AreRefusedOnTheSummarysStages()
    {
        var document = Document();
        var total = document.Summary!.TotalOk;
        BenchEngine.Metrics.StageSummary Stage(long ok) => new() { Ok = ok };

        Assert.Empty(RunTransfer.Validate(document with { Summary = document.Summary with { Stages = [Stage(total - 1), Stage(1)] } }));
        Assert.Contains(RunTransfer.Validate(document with { Summary = document.Summary with { Stages = [Stage(total), Stage(1)] } }), e => e.Field == "Summary.Stages");
        Assert.Contains(RunTransfer.Validate(document with { Summary = document.Summary with { Stages = [Stage(total + 1), Stage(-1)] } }), e => e.Field == "Summary.Stages");
        Assert.Contains(RunTransfer.Validate(document with { Summary = document.Summary with { Stages = [Stage(long.MaxValue), Stage(long.MaxValue)] } }), e => e.Field == "Summary.Stages");
    }

    [Fact]
    public void Validate_NamesTagsAndNotesWithControlOrBidirectionalCharacters_AreRefusedOnTheirFields()
    {
        var document = Document();

        var errors = RunTransfer.Validate(document with
        {
            Plan = document.Plan! with { Name = "plan\u202Eexe" },
            ProfileName = "beep\u0007",
            ExportedFrom = "\u001b[2Jhost",
            Tags = ["ok", "nul\u0000"],
            Notes = "two lines\nare fine \u0085 but not this",
        });

        Assert.Equal(["ExportedFrom", "Notes", "Plan.Name", "ProfileName", "Tags"], errors.Select(e => e.Field).Order(StringComparer.Ordinal));
        Assert.Empty(RunTransfer.Validate(document with { Notes = "two lines\r\nare fine\tand tabs" }));
    }

    /// <summary>A small, consistent export as another installation would write it: three seconds of 100 documents.</summary>
    private static RunExport Document()
    {
        var start = new DateTimeOffset(2026, 3, 1, 14, 0, 0, TimeSpan.Zero);
        return new RunExport
        {
            ExportedAt = new DateTimeOffset(2026, 3, 1, 14, 5, 30, TimeSpan.Zero),
            ExportedFrom = "build-agent-7",
            RunId = 12,
            ProfileName = "elsewhere",
            Status = RunStatus.Completed,
            QueuedAt = start,
            StartedAt = start,
            EndedAt = start.AddSeconds(3),
            TargetDescription = "Simulated Cosmos DB",
            TargetIsModel = true,
            Notes = "gateway test",
            Tags = ["gateway", "2 cores"],
            Plan = ShortPlan("elsewhere", seconds: 3) with { Thresholds = new ThresholdOptions { MinThroughput = 50 } },
            Environment = new ClientEnvironment { ProcessorCount = 2, MachineName = "build-agent-7" },
            Summary = new RunSummary { Elapsed = TimeSpan.FromSeconds(3), TotalOk = 300, TotalOkRequests = 300, AverageThroughput = 100, TotalRequestUnits = 1_500, RequestUnitsPerInsert = 5, RequestUnitsPerSecond = 500 },
            Verdict = new Verdict { Passed = true, Checks = [new ThresholdCheck("throughput", true, "average throughput 100/s ≥ 50/s")] },
            Seconds = [.. Enumerable.Range(0, 3).Select(i => new RunExportSecond
            {
                Index = i, ElapsedSeconds = i + 1, DurationSeconds = 1, Ok = 100, OkRequests = 100, RequestUnits = 500, ClosedAt = start.AddSeconds(i + 1),
            })],
        };
    }

    /// <summary><see cref="Document"/> with the client's health in every second (starved in second 1) and a request in every
    /// bucket, its summary's client-limited figures computed by the engine from those seconds, as a run would have them.</summary>
    private static RunExport WithHealthAndBuckets(RunExport document)
    {
        var seconds = document.Seconds.Select(s => s with
        {
            SentLate = 3,
            NotStarted = s.Index == 2 ? 4 : 0,
            Abandoned = s.Index == 2 ? 2 : 0,
            GivenUpRequests = s.Index == 1 ? 1 : 0,
            Issued = 100 + s.Index,
            ClientCpuPercent = 30,
            Health = Judged(s.Index == 1 ? ScriptedClientHealth.Starved : ScriptedClientHealth.Healthy),
        }).ToList();
        var snapshots = seconds.Select(s => new SecondSnapshot { Index = s.Index, Duration = TimeSpan.FromSeconds(1), ClientCpuPercent = s.ClientCpuPercent, Health = s.Health }).ToList();
        return document with
        {
            Seconds = seconds,
            Summary = document.Summary! with
            {
                ClientBound = true,
                ClientLimitedSeconds = 1,
                ClientLimitedSpans = SummaryCalculator.ClientLimitedSpans(snapshots),
                PerSecondLeftOut = 1,
                WorstClientSecond = SummaryCalculator.WorstClientSecond(snapshots, ClientLimits.Default),
                TotalIssued = 303,
                TotalOffered = 307,
                TotalSentLate = 9,
                TotalNotStarted = 4,
                TotalAbandoned = 2,
                TotalGivenUpRequests = 1,
                MaxClientCpuPercent = 30,
            },
        };
    }

    private static ClientHealth Judged(ClientHealth health) => health with { Limits = ScriptedClientHealth.Limits.Judge(30, health) };

    /// <summary>A run export as the version before client health wrote it: no health, no request buckets, no client-limited
    /// figures in the summary; its second 1 at 92 % of this process's CPU (then the only sign of a client-bound run).</summary>
    private static string EarlierExport()
    {
        var document = JsonNode.Parse(JsonSerializer(Document()))!;
        var seconds = document["seconds"]!.AsArray();
        foreach (var second in seconds)
        {
            foreach (var added in new[] { "sentLate", "notStarted", "abandoned", "givenUpRequests", "clientLimited", "clientLimitedReason" })
            {
                Assert.True(second!.AsObject().Remove(added), added);
            }
        }

        seconds[1]!["clientCpuPercent"] = 92;
        var summary = document["summary"]!.AsObject();
        foreach (var added in new[] { "clientLimitedSeconds", "clientLimitedSpans", "perSecondLeftOut", "worstClientSecond", "totalOffered", "totalSentLate", "totalNotStarted", "totalAbandoned", "totalGivenUpRequests", "accountsBalance" })
        {
            Assert.True(summary.Remove(added), added);
        }

        Assert.True(summary["steadyState"]!.AsObject().Remove("secondsLeftOut"));
        summary["clientBound"] = true;
        summary["maxClientCpuPercent"] = 92;
        return document.ToJsonString();
    }

    [Fact]
    public async Task ApiAndExports_GiveTheUnsentRequestsThePercentileSetAndWhatLatencyCovers_ForAnOpenLoopRun()
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);
        var plan = new RunPlan
        {
            Name = "open loop beyond the target",
            Target = new BenchEngine.Targets.TargetOptions { Simulator = new BenchEngine.Targets.SimulatorOptions { MedianLatencyMs = 50 } },
            Load = new LoadOptions { Model = LoadModel.OpenLoop, RatePerSecond = 200, Concurrency = 1 },
            Stop = new StopOptions { DurationSeconds = 2 },
        };
        using var started = await PostJsonAsync(http, "api/runs", new { plan });
        var id = (await ReadAsync(started))["id"]!.GetValue<long>();

        var summary = (await WaitUntilEndedAsync(http, id))["summary"]!;
        var exported = JsonNode.Parse(await GetTextAsync(http, $"api/runs/{id}/export.json"))!;
        var csvText = await GetTextAsync(http, $"api/runs/{id}/export.csv");

        var dropped = summary["totalDropped"]!.GetValue<long>();
        Assert.True(dropped > 200, $"{dropped} requests due but not sent");
        Assert.Equal(200, summary["offeredRequestsPerSecond"]!.GetValue<double>());
        Assert.True(summary["achievedRequestsPerSecond"]!.GetValue<double>() < 40);
        Assert.Equal(0, summary["totalGivenUp"]!.GetValue<long>());
        foreach (var percentile in new[] { "p50Ms", "p75Ms", "p90Ms", "p95Ms", "p98Ms", "p99Ms", "p999Ms", "maxMs" })
        {
            Assert.True(summary["latency"]![percentile]!.GetValue<double>() > 0, percentile);
        }

        // On a busy machine every full second may be the client's: the per-second figures then leave them all out, and say so.
        Assert.NotNull(summary["top10PercentMeanThroughput"]);
        Assert.Equal(dropped, exported["summary"]!["totalDropped"]!.GetValue<long>());
        Assert.Equal(RunTransfer.LatencyCoverage, exported["latencyCoverage"]!.GetValue<string>());
        Assert.Equal(dropped, exported["seconds"]!.AsArray().Sum(s => s!["dropped"]!.GetValue<long>()));
        using var csv = new CsvReader(new StringReader(csvText), CultureInfo.InvariantCulture);
        var rows = csv.GetRecords<dynamic>().Cast<IDictionary<string, object>>().ToList();
        Assert.Equal(dropped, rows.Sum(r => long.Parse((string)r["dropped"], CultureInfo.InvariantCulture)));
    }

    [Fact]
    public async Task ExportCsv_LeavesTheLatencyCellsEmpty_ForASecondInWhichNothingSucceeded()
    {
        var export = new RunExport
        {
            Seconds =
            [
                new RunExportSecond { Index = 0, ElapsedSeconds = 1, DurationSeconds = 1, Ok = 10, OkRequests = 10, LatencyP50Ms = 4, LatencyP95Ms = 5, LatencyP99Ms = 6, LatencyMaxMs = 7 },
                new RunExportSecond { Index = 1, ElapsedSeconds = 2, DurationSeconds = 1, Errors = 3 },
            ],
        };
        using var text = new StringWriter(CultureInfo.InvariantCulture);

        await RunTransfer.WriteCsvAsync(export, text, CancellationToken.None);

        using var csv = new CsvReader(new StringReader(text.ToString()), CultureInfo.InvariantCulture);
        var rows = csv.GetRecords<dynamic>().Cast<IDictionary<string, object>>().ToList();
        Assert.Equal("4", rows[0]["p50_ms"]);
        Assert.All(new[] { "p50_ms", "p95_ms", "p99_ms", "max_ms" }, column => Assert.Equal("", rows[1][column]));
    }

    [Theory]
    [InlineData("TableStorage", null)]
    [InlineData("NoOp", false)]
    public async Task ExportCsv_LeavesTheRequestUnitCellsEmpty_ForATargetWithoutRequestUnits(string kindName, bool? reported)
    {
        var kind = new TargetKind(kindName);
        // A run stored before its summary said whether request units were reported is told by its kind.
        var export = new RunExport
        {
            TargetKind = kind,
            Summary = reported is { } value ? new RunSummary { RequestUnitsReported = value } : null,
            Seconds = [new RunExportSecond { Index = 0, ElapsedSeconds = 1, DurationSeconds = 1, Ok = 10, OkRequests = 10 }],
        };
        using var text = new StringWriter(CultureInfo.InvariantCulture);

        await RunTransfer.WriteCsvAsync(export, text, CancellationToken.None);

        using var csv = new CsvReader(new StringReader(text.ToString()), CultureInfo.InvariantCulture);
        var row = csv.GetRecords<dynamic>().Cast<IDictionary<string, object>>().Single();
        Assert.Equal("10", row["ok"]);
        Assert.Equal("", row["ru"]);
        Assert.Equal("", row["ru_per_s"]);
    }

    private static async Task<long> CompletedRunAsync(HttpClient http, double seconds = 2)
    {
        using var response = await PostJsonAsync(http, "api/runs", new { plan = ShortPlan("to export", seconds) });
        var run = await WaitUntilEndedAsync(http, (await ReadAsync(response))["id"]!.GetValue<long>());
        Assert.Equal("Completed", run["status"]!.GetValue<string>());
        return run["id"]!.GetValue<long>();
    }

    private static async Task<string> GetTextAsync(HttpClient http, string path)
    {
        using var response = await http.GetAsync(path);
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        return await response.Content.ReadAsStringAsync();
    }
}
