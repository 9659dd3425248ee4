using BenchEngine.Running;
using BenchEngine.Targets;
using Xunit.Abstractions;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Integration;

/// <summary>Bulk and Direct mode need a real account (or the official emulator): the local API server
/// speaks neither the binary batch format nor TCP. These run when COSMOS_ENDPOINT and COSMOS_KEY are set.</summary>
[IntegrationTest]
public class CosmosRealAccountTests(ITestOutputHelper output)
{
    private static readonly string? Endpoint = Environment.GetEnvironmentVariable("COSMOS_ENDPOINT");

    /// <summary>Whether a real account is configured, so these tests connect to it.</summary>
    public static bool Configured => !string.IsNullOrEmpty(Endpoint) && !string.IsNullOrEmpty(Environment.GetEnvironmentVariable("COSMOS_KEY"));

    private void SkipWithoutAccount()
    {
        if (!Configured)
        {
            const string reason = "skipped: COSMOS_ENDPOINT and COSMOS_KEY are not set (bulk and Direct mode need a real Cosmos DB account or the official emulator)";
            output.WriteLine(reason);
            Console.WriteLine($"{nameof(CosmosRealAccountTests)} {reason}");
            Skip.If(true, reason);
        }
    }

    [SkippableTheory]
    [InlineData(CosmosConnectionMode.Direct, false)]
    [InlineData(CosmosConnectionMode.Direct, true)]
    [InlineData(CosmosConnectionMode.Gateway, true)]
    public async Task Writes_SumOfPerSecondOk_EqualsDocumentsInTheContainer(CosmosConnectionMode mode, bool bulk)
    {
        SkipWithoutAccount();
        var plan = new RunPlan
        {
            Name = $"real {mode} bulk={bulk}",
            Target = new TargetOptions
            {
                Kind = TargetKind.CosmosSql,
                Cosmos = new CosmosOptions { Endpoint = Endpoint, ConnectionMode = mode, Bulk = bulk, Container = "benchweb-test-" + Guid.NewGuid().ToString("N")[..8], RequestUnits = 400 },
            },
            Load = new LoadOptions { Concurrency = bulk ? 100 : 16 },
            Stop = new StopOptions { TotalDocuments = 1_000 },
        };
        var runner = new BenchmarkRunner();

        var result = await runner.RunAsync(plan, TargetContext.FromEnvironment());
        await using var target = TargetRegistry.Create(plan.Target, TargetContext.FromEnvironment());
        await target.InitializeAsync(CancellationToken.None);

        output.WriteLine($"{result.Status}: {result.Summary.TotalOk} ok, {result.Summary.TotalThrottled} throttled, {result.Summary.RequestUnitsPerInsert:F2} RU/insert");
        Assert.Equal(RunStatus.Completed, result.Status);
        Assert.Equal(await target.CountAsync(CancellationToken.None), result.Seconds.Sum(s => s.Ok));
        Assert.True(result.Summary.RequestUnitsPerInsert > 1);
    }

    [SkippableTheory]
    [InlineData(ThroughputMode.Manual)]
    [InlineData(ThroughputMode.Autoscale)]
    public async Task Summary_PricesTheThroughputTheContainerHas_AutoscaleAtItsMaximum(ThroughputMode mode)
    {
        SkipWithoutAccount();
        var plan = new RunPlan
        {
            Name = $"real {mode} throughput",
            Target = new TargetOptions
            {
                Kind = TargetKind.CosmosSql,
                Cosmos = new CosmosOptions { Endpoint = Endpoint, Container = "benchweb-test-" + Guid.NewGuid().ToString("N")[..8], RequestUnits = 1_000, Throughput = mode },
            },
            Stop = new StopOptions { TotalDocuments = 100 },
        };

        var result = await new BenchmarkRunner().RunAsync(plan, TargetContext.FromEnvironment());

        Assert.Equal(1_000, result.Summary.ProvisionedRequestUnitsPerSecond);
        Assert.Equal(mode == ThroughputMode.Autoscale, result.Summary.ProvisionedAutoscale);
        Assert.NotNull(result.Summary.EstimatedCostPerMonth);
    }
}
