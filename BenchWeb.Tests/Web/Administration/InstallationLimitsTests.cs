using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;
using BenchWeb.Data;
using BenchWeb.Execution;
using BenchWeb.Guard.Administration;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Web.Administration;

[UnitTest]
public sealed class InstallationLimitsTests
{
    private static readonly InstallationLimits Limits = new(MaxDurationSeconds: 600, MaxDocuments: 1_000, MaxConcurrency: 20, MaxRatePerSecond: 100, MaxRequestUnits: 4_000);

    public static TheoryData<string, string> OverALimit => new()
    {
        { "Stop.DurationSeconds", "the installation allows at most 600 s (set by an administrator)." },
        { "Stop.TotalDocuments", "the installation allows at most 1,000 documents per run (set by an administrator)." },
        { "Stop.DocumentsPerWorker", "10 workers × 101 is 1,010" },
        { "Load.Concurrency", "the installation allows at most 20 (set by an administrator)." },
        { "Load.RatePerSecond", "the installation allows at most 100 requests/s (set by an administrator)." },
        { "Target.Cosmos.RequestUnits", "the installation allows at most 4,000 RU/s for a container it creates (set by an administrator)." },
    };

    [Theory]
    [MemberData(nameof(OverALimit))]
    public void Check_NamesTheFieldAndTheLimit_WhenAPlanGoesOverIt(string field, string message)
    {
        var plan = field switch
        {
            "Stop.DurationSeconds" => new RunPlan { Stop = new StopOptions { DurationSeconds = 601 } },
            "Stop.TotalDocuments" => new RunPlan { Stop = new StopOptions { TotalDocuments = 1_001 } },
            "Stop.DocumentsPerWorker" => new RunPlan { Load = new LoadOptions { Concurrency = 10 }, Stop = new StopOptions { DocumentsPerWorker = 101 } },
            "Load.Concurrency" => new RunPlan { Load = new LoadOptions { Concurrency = 21 } },
            "Load.RatePerSecond" => new RunPlan { Load = new LoadOptions { Model = LoadModel.OpenLoop, RatePerSecond = 101 } },
            _ => CosmosPlan(createIfMissing: true, requestUnits: 4_100),
        };

        var error = Assert.Single(Limits.Check(plan));

        Assert.Equal(field, error.Field);
        Assert.Contains(message, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Check_HoldsEachStageAndTheStagesLength_ToTheLimits_AndCapsNoStagedDuration()
    {
        var closed = new RunPlan
        {
            Load = new LoadOptions { Stages = [new LoadStage { DurationSeconds = 300, Concurrency = 20 }, new LoadStage { DurationSeconds = 301, Concurrency = 21 }] },
            Stop = new StopOptions(),
        };
        var open = new RunPlan
        {
            Load = new LoadOptions { Model = LoadModel.OpenLoop, Stages = [new LoadStage { DurationSeconds = 10, RatePerSecond = 101 }] },
            Stop = new StopOptions(),
        };

        Assert.Equal(["Load.Stages", "Load.Stages[1].Concurrency"], Limits.Check(closed).Select(e => e.Field).Order(StringComparer.Ordinal));
        Assert.Equal(["Load.Stages[0].RatePerSecond"], Limits.Check(open).Select(e => e.Field));
        Assert.Null(Limits.CapsFor(open).DurationSeconds);
    }

    [Fact]
    public void Check_AcceptsAPlanAtEveryLimit_WhenNothingIsOver()
    {
        var plan = new RunPlan
        {
            Load = new LoadOptions { Model = LoadModel.OpenLoop, RatePerSecond = 100, Concurrency = 20 },
            Stop = new StopOptions { DurationSeconds = 600, TotalDocuments = 1_000 },
        };

        Assert.Empty(Limits.Check(plan));
    }

    [Fact]
    public void Check_LeavesRequestUnitsAlone_WhenTheAppProvisionsNothing()
    {
        // The simulator's RU/s are a model's budget; an existing container keeps its own throughput.
        var simulated = new RunPlan { Target = new TargetOptions { Simulator = new SimulatorOptions { ProvisionedRequestUnits = 100_000, PhysicalPartitions = 10 } } };

        Assert.Empty(Limits.Check(simulated));
        Assert.Empty(Limits.Check(CosmosPlan(createIfMissing: false, requestUnits: 100_000)));
        Assert.Empty(Limits.Check(CosmosPlan(createIfMissing: true, requestUnits: null)));
    }

    [Fact]
    public void CapsFor_AddsTheMaximumDurationAndDocuments_WhenAPlanGivesNeither()
    {
        var csv = new RunPlan { Workload = new WorkloadOptions { Shape = DocumentShape.CsvFile, CsvPath = "flights.csv" }, Stop = new StopOptions() };

        Assert.Equal((600d, 1_000L), Limits.CapsFor(csv));
        Assert.Equal((null, 1_000L), Limits.CapsFor(new RunPlan { Stop = new StopOptions { DurationSeconds = 30 } }));
        Assert.Equal((600d, null), Limits.CapsFor(new RunPlan { Stop = new StopOptions { TotalDocuments = 50 } }));
        Assert.Equal((null, null), Limits.CapsFor(new RunPlan { Load = new LoadOptions { Concurrency = 4 }, Stop = new StopOptions { DurationSeconds = 30, DocumentsPerWorker = 5 } }));
    }

    [Fact]
    public void WithCaps_StopsAPlanWithoutStopsAtTheCaps_WhileTheSnapshotKeepsThePlanAsWritten()
    {
        var csv = new RunPlan { Workload = new WorkloadOptions { Shape = DocumentShape.CsvFile, CsvPath = "flights.csv" }, Stop = new StopOptions() };
        var run = new RunEntity { ProfileName = "csv", PlanJson = csv.ToJson(), DurationCapSeconds = 600, DocumentCap = 1_000 };

        var executed = RunExecutor.WithCaps(RunPlan.FromJson(run.PlanJson), run);

        Assert.Equal(600, executed.Stop.DurationSeconds);
        Assert.Equal(1_000, executed.Stop.TotalDocuments);
        Assert.DoesNotContain(executed.Validate(), e => e.Field.StartsWith("Stop", StringComparison.Ordinal));
        Assert.Null(RunPlan.FromJson(run.PlanJson).Stop.DurationSeconds);
    }

    [Fact]
    public void CapReason_SaysTheInstallationCutTheRun_WhenTheCapStoppedIt()
    {
        var run = new RunEntity { ProfileName = "p", PlanJson = "{}", DurationCapSeconds = 600, DocumentCap = 1_000 };

        Assert.StartsWith("cut at the installation's maximum run duration", RunExecutor.CapReason(run, FormattableString.CurrentCulture($"ran for {600:N0} s")), StringComparison.Ordinal);
        Assert.StartsWith("cut at the installation's maximum of", RunExecutor.CapReason(run, FormattableString.CurrentCulture($"reached {1_000:N0} documents")), StringComparison.Ordinal);
        Assert.Equal("cancelled by the user", RunExecutor.CapReason(run, "cancelled by the user"));
    }

    [Fact]
    public void CapReason_KeepsWhatTheEngineSaidLanded_AndTheCapsDurationAsItWasSet()
    {
        var run = new RunEntity { ProfileName = "p", PlanJson = "{}", DurationCapSeconds = 2.5, DocumentCap = 1_000 };

        Assert.Equal(
            "cut at the installation's maximum of 1,000 documents (set by an administrator; the plan gave no count): 974 landed, 26 errors",
            RunExecutor.CapReason(run, "took all 1,000 documents: 974 landed, 26 errors"));
        Assert.Equal(
            "cut at the installation's maximum run duration, 2.5 s (set by an administrator; the plan gave no duration); 9 landed, 1 given up after their throttle retries ran out (each may or may not have landed)",
            RunExecutor.CapReason(run, "ran for 2.5 s; 9 landed, 1 given up after their throttle retries ran out (each may or may not have landed)"));
        Assert.Equal("took all 1,0000 documents", RunExecutor.CapReason(run, "took all 1,0000 documents"));
    }

    [Fact]
    public void Validate_NamesEachSettingOutOfRange_WhenAnAdministratorSavesIt()
    {
        var errors = InstallationSettingsService.Validate(new InstallationSettings
        {
            MaxDurationSeconds = 0,
            MaxConcurrency = 10_001,
            MaxRequestUnits = 399,
            EndpointPatterns = ["*.com", "bench.example.net"],
        });

        Assert.Equal(["MaxDurationSeconds", "MaxConcurrency", "MaxRequestUnits", "EndpointPatterns"], errors.Select(e => e.Field));
        Assert.Contains("'*.com' is too broad", errors[^1].Message, StringComparison.Ordinal);
    }

    private static RunPlan CosmosPlan(bool createIfMissing, int? requestUnits) => new()
    {
        Target = new TargetOptions
        {
            Kind = TargetKind.CosmosSql,
            Cosmos = new CosmosOptions { Endpoint = "https://acme.documents.azure.com:443/", CreateIfMissing = createIfMissing, RequestUnits = requestUnits },
        },
    };
}
