using BenchEngine.Running;
using BenchWeb.Headless;
using BenchWeb.Tests.Support;
using Microsoft.Extensions.Configuration;

namespace BenchWeb.Tests.Web.Headless;

[IntegrationTest]
public sealed class HeadlessCommandTests : IDisposable
{
    private readonly string _directory = Directory.CreateTempSubdirectory("benchweb-headless-").FullName;

    [Fact]
    public async Task Run_ThresholdsMet_ExitsZero()
    {
        var (code, output) = await RunAsync(new ThresholdOptions { MinThroughput = 1 });

        Assert.Equal(HeadlessCommand.ExitCompleted, code);
        Assert.Contains("Thresholds: Passed (2 checks)", output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Run_PrintsAbandonedGivenUpAndThePercentileSet_SayingWhatTheyCover()
    {
        var (_, output) = await RunAsync(null);

        Assert.Contains(" · given up 0 · abandoned 0", output, StringComparison.Ordinal);
        Assert.Contains(" · P75 ", output, StringComparison.Ordinal);
        Assert.Contains(" · P98 ", output, StringComparison.Ordinal);
        Assert.Contains("(successful operations; failed and throttled attempts excluded)", output, StringComparison.Ordinal);
        Assert.Contains("top 10 % of seconds", output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Run_OpenLoopBeyondTheTarget_PrintsTheUnsentRequests_AndMissesTheUnsentLimit()
    {
        var plan = new RunPlan
        {
            Name = "open",
            Target = new BenchEngine.Targets.TargetOptions { Simulator = new BenchEngine.Targets.SimulatorOptions { MedianLatencyMs = 50 } },
            Load = new LoadOptions { Model = LoadModel.OpenLoop, RatePerSecond = 200, Concurrency = 1 },
            Stop = new StopOptions { DurationSeconds = 1 },
            Thresholds = new ThresholdOptions { MaxDroppedPercent = 10 },
        };
        var profile = Path.Combine(_directory, "open.json");
        await File.WriteAllTextAsync(profile, plan.ToJson());
        using var output = new StringWriter();
        using var error = new StringWriter();

        var code = await HeadlessCommand.RunAsync([profile, "--summary", Path.Combine(_directory, "open.result.json")], output, error, CancellationToken.None);

        // The plan sets its own limit on unsent requests: a missed threshold, not a failed run.
        Assert.Equal(HeadlessCommand.ExitThresholdsFailed, code);
        Assert.Contains("  requests offered 200.0/s · sent ", output.ToString(), StringComparison.Ordinal);
        Assert.Contains("FAIL  requests due but not sent ", output.ToString(), StringComparison.Ordinal);
        Assert.Contains("  not sent ", output.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Run_StagedPlan_PrintsAStageTable()
    {
        var plan = new RunPlan
        {
            Name = "staged",
            Load = new LoadOptions { Stages = [new LoadStage { DurationSeconds = 1, Concurrency = 2 }, new LoadStage { DurationSeconds = 1, Concurrency = 4, Ramp = StageRamp.Linear }] },
            Stop = new StopOptions(),
        };
        var profile = Path.Combine(_directory, "staged.json");
        await File.WriteAllTextAsync(profile, plan.ToJson());
        using var output = new StringWriter();

        var code = await HeadlessCommand.RunAsync([profile], output, TextWriter.Null, CancellationToken.None);

        Assert.Equal(HeadlessCommand.ExitCompleted, code);
        var text = output.ToString();
        Assert.Contains("ran for 2 s", text, StringComparison.Ordinal);
        Assert.Contains("  stage seconds ", text, StringComparison.Ordinal);
        Assert.Contains("  1     0–0 ", text, StringComparison.Ordinal);
        Assert.Contains("  2     1–", text, StringComparison.Ordinal);
    }

    [Fact]
    [Slow]
    public async Task Run_ClientStarvedInTwoSeconds_MarksThemAndPrintsTheSpanInWordsAndTheAccountingIdentity()
    {
        var plan = new RunPlan { Name = "starved", Load = new LoadOptions { Concurrency = 4 }, Stop = new StopOptions { DurationSeconds = 3 } };
        var profile = Path.Combine(_directory, "starved.json");
        var result = Path.Combine(_directory, "starved.result.json");
        await File.WriteAllTextAsync(profile, plan.ToJson());
        using var output = new StringWriter();
        using var error = new StringWriter();

        var code = await HeadlessCommand.RunAsync([profile, "--summary", result], output, error, Configuration(ScriptedClientHealth.Settings()),
            limits => new BenchmarkRunner { ClientLimits = limits, ClientHealth = l => new ScriptedClientHealth(l, ScriptedClientHealth.StarvedIn(1, 2)) }, CancellationToken.None);

        Assert.True(code == HeadlessCommand.ExitCompleted, error.ToString());
        var text = output.ToString();
        var lines = text.Split('\n');
        Assert.Equal(2, lines.Count(l => l.Contains("host 100%  lag p99  180.0 ms  [client-limited: HostCpu, SchedulingLag]", StringComparison.Ordinal)));
        Assert.Equal(2, lines.Count(l => l.Contains("[client-limited", StringComparison.Ordinal)));
        Assert.Contains(lines, l => l.TrimEnd().EndsWith("host  20%  lag p99    0.4 ms", StringComparison.Ordinal));
        Assert.Contains("    seconds 1–2: the client was starved: scheduling lag p99 180 ms, host CPU 100 %, this process ", text, StringComparison.Ordinal);

        // The result file has the same spans, the worst second, every second's health, and the buckets that balance.
        var document = System.Text.Json.Nodes.JsonNode.Parse(await File.ReadAllTextAsync(result))!;
        var summary = document["summary"]!;
        var span = Assert.Single(summary["clientLimitedSpans"]!.AsArray())!;
        Assert.Equal((1, 2), (span["firstSecond"]!.GetValue<int>(), span["lastSecond"]!.GetValue<int>()));
        Assert.StartsWith("the client was starved: scheduling lag p99 180 ms, host CPU 100 %", span["reason"]!.GetValue<string>(), StringComparison.Ordinal);
        Assert.Equal(2, summary["clientLimitedSeconds"]!.GetValue<int>());
        Assert.Equal(1, summary["worstClientSecond"]!["index"]!.GetValue<int>());
        Assert.True(summary["accountsBalance"]!.GetValue<bool>());
        Assert.All(document["seconds"]!.AsArray(), s => Assert.NotNull(s!["health"]));
        Assert.True(document["seconds"]![2]!["clientLimited"]!.GetValue<bool>());
        long Figure(string name) => summary[name]!.GetValue<long>();
        Assert.Equal(
            Figure("totalOffered"),
            Figure("totalOkRequests") + Figure("totalGivenUpRequests") + Figure("totalErrors") + Figure("totalAbandoned") + Figure("totalDropped") + Figure("totalNotStarted"));
        Assert.Contains(string.Create(System.Globalization.CultureInfo.InvariantCulture,
            $"  requests offered {Figure("totalOffered"):N0} = ok {Figure("totalOkRequests"):N0} + given up {Figure("totalGivenUpRequests"):N0} + errors {Figure("totalErrors"):N0} + abandoned {Figure("totalAbandoned"):N0} + dropped {Figure("totalDropped"):N0} + not started {Figure("totalNotStarted"):N0} · sent late {Figure("totalSentLate"):N0}"),
            text, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Run_ClientLimitOutOfItsRange_ExitsTwoNamingTheSettingBeforeRunning()
    {
        var profile = Path.Combine(_directory, "bounded.json");
        await File.WriteAllTextAsync(profile, new RunPlan { Name = "bounded", Stop = new StopOptions { DurationSeconds = 1 } }.ToJson());
        using var output = new StringWriter();
        using var error = new StringWriter();

        var code = await HeadlessCommand.RunAsync([profile], output, error,
            Configuration(new() { ["BenchWeb:ClientLimits:HostCpuPercent"] = "150" }), createRunner: null, CancellationToken.None);

        Assert.Equal(HeadlessCommand.ExitInvalidInput, code);
        Assert.Contains("BenchWeb:ClientLimits", error.ToString(), StringComparison.Ordinal);
        Assert.Contains("HostCpuPercent", error.ToString(), StringComparison.Ordinal);
        Assert.DoesNotContain("Running against", output.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public void SecondLine_GivesTheHostsCpuAndTheSchedulingLag_AndMarksAClientLimitedSecond()
    {
        var health = ScriptedClientHealth.Starved with { Limits = BenchEngine.Metrics.ClientLimitKinds.HostCpu | BenchEngine.Metrics.ClientLimitKinds.SchedulingLag };
        var starved = new BenchEngine.Metrics.SecondSnapshot { Index = 4, Elapsed = TimeSpan.FromSeconds(5), Duration = TimeSpan.FromSeconds(1), Ok = 10, ClientCpuPercent = 22, Health = health };
        var unmeasured = starved with { Health = null };

        var line = HeadlessCommand.SecondLine(starved, requestUnitsReported: true);

        Assert.EndsWith("cpu  22%  host 100%  lag p99  180.0 ms  [client-limited: HostCpu, SchedulingLag]", line, StringComparison.Ordinal);
        Assert.EndsWith("cpu  22%  host   —%  lag p99      — ms", HeadlessCommand.SecondLine(unmeasured, requestUnitsReported: true), StringComparison.Ordinal);
    }

    private static IConfiguration Configuration(Dictionary<string, string?> settings) => new ConfigurationBuilder().AddInMemoryCollection(settings).Build();

    [Fact]
    public void SecondLine_GivesAPartialLastSecondsCounts_NeverARateScaledUpFromIt()
    {
        var partial = new BenchEngine.Metrics.SecondSnapshot { Index = 3, Elapsed = TimeSpan.FromSeconds(3.007), Duration = TimeSpan.FromSeconds(0.007), Ok = 13, OkRequests = 13, RequestUnits = 65 };

        var line = HeadlessCommand.SecondLine(partial, requestUnitsReported: true);

        Assert.Contains("ok        13 in 0.007 s (partial second)", line, StringComparison.Ordinal);
        Assert.DoesNotContain("1,857", line, StringComparison.Ordinal);
        Assert.DoesNotContain("RU/s", line, StringComparison.Ordinal);
    }

    [Fact]
    public void SecondLine_ShowsTheRequestsAbandonedAtTheStop_InTheSecondTheyWereCutOffIn()
    {
        var last = new BenchEngine.Metrics.SecondSnapshot { Index = 8, Elapsed = TimeSpan.FromSeconds(8.5), Duration = TimeSpan.FromSeconds(0.5), Ok = 40, OkRequests = 40, Abandoned = 50 };

        Assert.Contains("abandoned    50", HeadlessCommand.SecondLine(last, requestUnitsReported: true), StringComparison.Ordinal);
        Assert.DoesNotContain("abandoned", HeadlessCommand.SecondLine(last with { Abandoned = 0 }, requestUnitsReported: true), StringComparison.Ordinal);
    }

    [Fact]
    public void SecondLine_HasNoLatency_WhenNothingSucceeded_AndNoRequestUnits_ForATargetWithoutThem()
    {
        var failed = new BenchEngine.Metrics.SecondSnapshot { Index = 0, Elapsed = TimeSpan.FromSeconds(1), Duration = TimeSpan.FromSeconds(1), Errors = 5 };

        var line = HeadlessCommand.SecondLine(failed, requestUnitsReported: false);

        Assert.Contains("p50       — ms", line, StringComparison.Ordinal);
        Assert.Contains("RU n/a", line, StringComparison.Ordinal);
        Assert.DoesNotContain("0.00 ms", line, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Run_ThresholdMissed_ExitsThreeNamingTheCheck()
    {
        var (code, output) = await RunAsync(new ThresholdOptions { MinThroughput = 100_000_000 });

        Assert.Equal(HeadlessCommand.ExitThresholdsFailed, code);
        Assert.Contains("FAIL  average throughput", output, StringComparison.Ordinal);
        Assert.Contains("< 100,000,000.0/s", output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Run_BaselineFromAnEarlierResult_DecidesTheShareCheck()
    {
        var (first, _) = await RunAsync(null, "baseline");
        Assert.Equal(HeadlessCommand.ExitCompleted, first);

        // The earlier result as the command wrote it, but with a throughput no run here reaches: two short runs on two
        // busy cores can differ by more than any share a test could pick.
        var baseline = Path.Combine(_directory, "baseline.result.json");
        var unreachable = Path.Combine(_directory, "unreachable.result.json");
        var document = System.Text.Json.Nodes.JsonNode.Parse(await File.ReadAllTextAsync(baseline))!;
        document["summary"]!["averageThroughput"] = 1e12;
        await File.WriteAllTextAsync(unreachable, document.ToJsonString());

        var (code, output) = await RunAsync(new ThresholdOptions { MinShareOfBaseline = 0.5 }, "second", "--baseline", unreachable);

        Assert.Equal(HeadlessCommand.ExitThresholdsFailed, code);
        Assert.Contains("of the baseline's", output, StringComparison.Ordinal);

        var (passing, _) = await RunAsync(new ThresholdOptions { MinShareOfBaseline = 0.01 }, "third", "--baseline", baseline);
        Assert.Equal(HeadlessCommand.ExitCompleted, passing);
    }

    [Fact]
    public async Task Run_WritesARunExport_WithoutARunNumber_ThatADashboardWouldImport()
    {
        var (code, _) = await RunAsync(new ThresholdOptions { MinThroughput = 1 }, "exported");
        Assert.Equal(HeadlessCommand.ExitCompleted, code);

        await using var file = File.OpenRead(Path.Combine(_directory, "exported.result.json"));
        var (document, errors) = await BenchWeb.Transfer.RunTransfer.ReadAsync(file, CancellationToken.None);

        Assert.Empty(errors);
        Assert.Empty(BenchWeb.Transfer.RunTransfer.Validate(document!));
        Assert.Null(document!.RunId);
        Assert.Equal((BenchWeb.Transfer.RunExport.CurrentFormatVersion, "exported", RunStatus.Completed), (document.FormatVersion, document.ProfileName, document.Status));
        Assert.Equal(Environment.MachineName, document.ExportedFrom);
        Assert.Equal(document.Summary!.TotalOk, document.Seconds.Sum(s => s.Ok));
        Assert.True(document.Verdict!.Passed);
        Assert.Equal(BenchWeb.Transfer.RunTransfer.LatencyCoverage, document.LatencyCoverage);
        Assert.NotNull(document.Environment);
        Assert.Equal(document.StartedAt, document.QueuedAt);
        Assert.True(document.EndedAt >= document.StartedAt + document.Summary.Elapsed);
    }

    [Fact]
    public async Task Run_BaselineWrittenByAnEarlierVersion_TheEnginesOwnResult_StillDecidesTheShareCheck()
    {
        var earlier = Path.Combine(_directory, "earlier.result.json");
        var result = new RunResult
        {
            Status = RunStatus.Completed,
            Seconds = [new BenchEngine.Metrics.SecondSnapshot { Index = 0, Elapsed = TimeSpan.FromSeconds(1), Duration = TimeSpan.FromSeconds(1), Ok = 10 }],
            Summary = new BenchEngine.Metrics.RunSummary { AverageThroughput = 1e12 },
        };
        await File.WriteAllTextAsync(earlier, System.Text.Json.JsonSerializer.Serialize(result, RunPlan.JsonOptions));

        var (code, output) = await RunAsync(new ThresholdOptions { MinShareOfBaseline = 0.5 }, "against-earlier", "--baseline", earlier);

        Assert.Equal(HeadlessCommand.ExitThresholdsFailed, code);
        Assert.Contains("of the baseline's", output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Run_UnreadableBaseline_IsInvalidInput()
    {
        await File.WriteAllTextAsync(Path.Combine(_directory, "broken.json"), "{ not json");

        var (code, _) = await RunAsync(new ThresholdOptions { MinShareOfBaseline = 0.9 }, "second", "--baseline", Path.Combine(_directory, "broken.json"));

        Assert.Equal(HeadlessCommand.ExitInvalidInput, code);
    }

    public static TheoryData<string, string> BadProfiles() => new()
    {
        { """{ "load": { "model": "OpenLoop", "ratePerSecond": "NaN" }, "stop": { "totalDocuments": 10 } }""", "Load.RatePerSecond" },
        { """{ "load": { "model": "OpenLoop", "ratePerSecond": 1e-300 }, "stop": { "totalDocuments": 10 } }""", "Load.RatePerSecond" },
        { """{ "stop": { "durationSeconds": 1e400 } }""", "Stop.DurationSeconds" },
        { """{ "stop": { "durationSeconds": "Infinity" } }""", "Stop.DurationSeconds" },
        { """{ "stop": { "totalDocuments": 10, "autoStop": { "errorFractionAbove": "NaN" } } }""", "Stop.AutoStop.ErrorFractionAbove" },
        { """{ "thresholds": { "minThroughput": "NaN", "maxP99LatencyMs": "-Infinity" }, "stop": { "totalDocuments": 10 } }""", "Thresholds.MinThroughput" },
        { """{ "target": { "simulator": { "medianLatencyMs": "NaN" } }, "stop": { "totalDocuments": 10 } }""", "Target.Simulator.MedianLatencyMs" },
        { """{ "load": { "concurrency": 10000 }, "stop": { "documentsPerWorker": 9223372036854775807 } }""", "Stop.DocumentsPerWorker" },
        { """{ "stop": { "totalDocuments": 1e30 } }""", "$.stop.totalDocuments" },
        { """{ "load": { "concurrency": 99999999999 }, "stop": { "totalDocuments": 10 } }""", "$.load.concurrency" },
        { """{ "target": { "kind": "CosmosSql", "cosmos": { "endpoint": "ftp://127.0.0.1:1/" } }, "stop": { "totalDocuments": 10 } }""", "Target.Cosmos.Endpoint" },
        { """{ "target": { "kind": "CosmosSql", "cosmos": { "endpoint": "file:///etc/hosts" } }, "stop": { "totalDocuments": 10 } }""", "Target.Cosmos.Endpoint" },
        { $$"""{ "name": "{{new string('n', 201)}}", "stop": { "totalDocuments": 10 } }""", "Name" },
        { """{ "workload": { "shape": "JsonTemplate", "template": "{ \"a\": \"{{text:2000000}}\", \"b\": \"{{text:2000000}}\" }" }, "stop": { "totalDocuments": 10 } }""", "Workload.Template" },
        { """{ "target": { "kind": "TableStorage" }, "workload": { "targetSizeBytes": 500000 }, "stop": { "totalDocuments": 10 } }""", "Workload.TargetSizeBytes" },
        { """{ "workload": { "shape": "CsvFile", "csvPath": "." }, "stop": { "totalDocuments": 10 } }""", "Workload.CsvPath" },
    };

    [Theory]
    [MemberData(nameof(BadProfiles))]
    public async Task Run_ExitsTwoNamingTheField_WhenTheProfileIsInvalid(string json, string field)
    {
        var (code, output) = await RunProfileAsync(json);

        Assert.Equal(HeadlessCommand.ExitInvalidInput, code);
        Assert.Contains($"  {field}: ", output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Run_ExitsOneNamingTheSecret_WhenTheCosmosKeyIsNotBase64()
    {
        await using var silent = new SilentServer();
        var secret = "BENCHWEB_TEST_KEY_" + Guid.NewGuid().ToString("N");
        const string Value = "not*base64*secret-value";
        Environment.SetEnvironmentVariable(secret, Value);
        try
        {
            var (code, output) = await RunProfileAsync($$"""
                { "target": { "kind": "CosmosSql", "cosmos": { "endpoint": "{{silent.Endpoint}}", "keySecret": "{{secret}}", "connectionMode": "Gateway", "limitToEndpoint": true } },
                  "stop": { "totalDocuments": 10 } }
                """);

            Assert.Equal(HeadlessCommand.ExitFailed, code);
            Assert.Contains($"'{secret}'", output, StringComparison.Ordinal);
            Assert.Contains("base64", output, StringComparison.Ordinal);
            Assert.DoesNotContain(Value, output, StringComparison.Ordinal);
        }
        finally
        {
            Environment.SetEnvironmentVariable(secret, null);
        }
    }

    [Fact]
    public async Task Run_ExitsTwoBeforeRunning_WhenTheSummaryFolderDoesNotExist()
    {
        var (code, output) = await RunProfileAsync("""{ "stop": { "totalDocuments": 10 } }""", "--summary", Path.Combine(_directory, "missing", "out.json"));

        Assert.Equal(HeadlessCommand.ExitInvalidInput, code);
        Assert.Contains("missing", output, StringComparison.Ordinal);
        Assert.DoesNotContain("Running against", output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Run_ExitsFour_WhenAnAutoStopRuleEndsTheRun()
    {
        var (code, output) = await RunProfileAsync("""
            { "target": { "simulator": { "provisionedRequestUnits": 400 } },
              "load": { "concurrency": 64, "throttling": { "sharedBackoff": false } },
              "stop": { "durationSeconds": 30, "autoStop": { "throttledFractionAbove": 0.05, "windowSeconds": 1 } } }
            """);

        Assert.Equal(HeadlessCommand.ExitStopped, code);
        Assert.Contains(": Stopped (auto-stop:", output, StringComparison.Ordinal);
    }

    private async Task<(int Code, string Output)> RunProfileAsync(string json, params string[] extra)
    {
        var profile = Path.Combine(_directory, Guid.NewGuid().ToString("N") + ".json");
        await File.WriteAllTextAsync(profile, json);
        using var output = new StringWriter();
        using var error = new StringWriter();
        var code = await HeadlessCommand.RunAsync([profile, .. extra], output, error, CancellationToken.None);
        return (code, output + error.ToString());
    }

    [Fact]
    public async Task Run_CsvPathProfile_ReadsTheLocalFileToItsEnd()
    {
        // On the user's own machine a profile may still name a file by path; only plans from the web may not.
        var csv = Path.Combine(_directory, "flights.csv");
        await File.WriteAllTextAsync(csv, Support.CsvUploads.Flights(321));
        var plan = new RunPlan { Name = "csv", Workload = new BenchEngine.Workloads.WorkloadOptions { Shape = BenchEngine.Workloads.DocumentShape.CsvFile, CsvPath = csv }, Stop = new StopOptions() };
        var profile = Path.Combine(_directory, "csv.json");
        await File.WriteAllTextAsync(profile, plan.ToJson());
        var summary = Path.Combine(_directory, "csv.result.json");

        var code = await HeadlessCommand.RunAsync([profile, "--summary", summary], TextWriter.Null, TextWriter.Null, CancellationToken.None);

        Assert.Equal(HeadlessCommand.ExitCompleted, code);
        await using var file = File.OpenRead(summary);
        var (result, errors) = await BenchWeb.Transfer.RunTransfer.ReadAsync(file, CancellationToken.None);
        Assert.Empty(errors);
        Assert.Equal(321, result!.Summary!.TotalOk);
    }

    [Fact]
    public async Task Run_NeverStarted_PrintsNoSteadyWindow()
    {
        var profile = Path.Combine(_directory, "unopened.json");
        await File.WriteAllTextAsync(profile, new RunPlan { Name = "unopened", Stop = new StopOptions { DurationSeconds = 1 } }.ToJson());
        using var output = new StringWriter();
        using var error = new StringWriter();

        var code = await HeadlessCommand.RunAsync([profile, "--summary", Path.Combine(_directory, "unopened.result.json")], output, error, configuration: null,
            limits => new BenchmarkRunner(TimeProvider.System, (_, _) => new UnopenableTarget()) { ClientLimits = limits }, CancellationToken.None);

        Assert.Equal(HeadlessCommand.ExitFailed, code);
        var text = output.ToString();
        Assert.Contains("unopened: Failed (", text, StringComparison.Ordinal);
        Assert.Contains(" · steady none\n", text.ReplaceLineEndings("\n"), StringComparison.Ordinal);
        Assert.DoesNotContain("–-1", text, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Run_FailedByAnUnexpectedException_SaysWhatStoppedIt_NotFailedTwice()
    {
        var profile = Path.Combine(_directory, "crash.json");
        await File.WriteAllTextAsync(profile, new RunPlan { Name = "crash", Load = new LoadOptions { Concurrency = 2 }, Stop = new StopOptions { DurationSeconds = 30 } }.ToJson());
        using var output = new StringWriter();
        using var error = new StringWriter();

        var code = await HeadlessCommand.RunAsync([profile, "--summary", Path.Combine(_directory, "crash.result.json")], output, error, configuration: null,
            limits => new BenchmarkRunner(TimeProvider.System, sourceFactory: (_, _) => new BreakingSource(after: 20)) { ClientLimits = limits }, CancellationToken.None);

        Assert.Equal(HeadlessCommand.ExitFailed, code);
        var text = output.ToString();
        Assert.Contains("crash: Failed (an unexpected InvalidOperationException) against ", text, StringComparison.Ordinal);
        Assert.DoesNotContain("(failed)", text, StringComparison.Ordinal);
        Assert.Contains("Run failed: The run failed (InvalidOperationException).", error.ToString(), StringComparison.Ordinal);
    }

    /// <summary>A target whose service cannot be reached: the run never starts.</summary>
    private sealed class UnopenableTarget : BenchEngine.Targets.IInsertTarget
    {
        public string Description => "unreachable";

        public bool IsModel => false;

        public double? ProvisionedRequestUnits => null;

        public Task InitializeAsync(CancellationToken cancellationToken) => throw new HttpRequestException("connection refused");

        public Task<BenchEngine.Targets.OperationOutcome> WriteAsync(IReadOnlyList<BenchEngine.Workloads.Document> documents, BenchEngine.Targets.WriteOperation operation, CancellationToken cancellationToken) =>
            throw new InvalidOperationException("never opened");

        public Task<long> CountAsync(CancellationToken cancellationToken) => Task.FromResult(0L);

        public ValueTask DisposeAsync() => ValueTask.CompletedTask;
    }

    /// <summary>Documents until <c>after</c> of them, then an exception no part of the engine expects: a bug.</summary>
    private sealed class BreakingSource(int after) : BenchEngine.Workloads.IDocumentSource
    {
        private readonly BenchEngine.Workloads.IDocumentSource _documents = BenchEngine.Workloads.DocumentSourceFactory.Create(new BenchEngine.Workloads.WorkloadOptions(), TimeProvider.System);
        private int _taken;

        public string Description => "breaking";

        public bool TryNext(out BenchEngine.Workloads.Document document) =>
            ++_taken <= after ? _documents.TryNext(out document) : throw new InvalidOperationException("a bug");

        public void Dispose() => _documents.Dispose();
    }

    private async Task<(int Code, string Output)> RunAsync(ThresholdOptions? thresholds, string name = "profile", params string[] extra)
    {
        var plan = new RunPlan { Name = name, Load = new LoadOptions { Concurrency = 4 }, Stop = new StopOptions { DurationSeconds = 1 }, Thresholds = thresholds };
        var profile = Path.Combine(_directory, name + ".json");
        await File.WriteAllTextAsync(profile, plan.ToJson());
        using var output = new StringWriter();
        using var error = new StringWriter();
        var code = await HeadlessCommand.RunAsync([profile, "--summary", Path.Combine(_directory, name + ".result.json"), .. extra], output, error, CancellationToken.None);
        return (code, output + error.ToString());
    }

    public void Dispose() => Directory.Delete(_directory, recursive: true);
}
