using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Engine.Running;

/// <summary>The accounting identity against a real server (Azurite's Table Storage), on the system clock, for every load
/// model: offered = ok + given up + errors + abandoned + dropped + not started, and what landed is what was counted.</summary>
[Collection(AzuriteCollection.Name)]
[IntegrationTest]
public sealed class BenchmarkRunnerAzuriteAccountingTests(AzuriteServer azurite)
{
    [Theory]
    [InlineData(LoadModel.ClosedLoop)]
    [InlineData(LoadModel.OpenLoop)]
    [InlineData(LoadModel.Waves)]
    [InlineData(LoadModel.Unbounded)]
    public async Task RunAsync_AccountsForEveryRequest_AgainstAzuriteTables(LoadModel model)
    {
        var table = StorageTargets.NewName();
        var plan = new RunPlan
        {
            Name = "azurite accounting",
            Target = new TargetOptions { Kind = TargetKind.TableStorage, Tables = new TableOptions { TableName = table } },
            Load = new LoadOptions { Model = model, Concurrency = 8, RatePerSecond = model == LoadModel.OpenLoop ? 200 : null },
            Stop = model == LoadModel.Unbounded ? new StopOptions { TotalDocuments = 300 } : new StopOptions { DurationSeconds = 2 },
        };

        var result = await new BenchmarkRunner().RunAsync(plan, StorageTargets.Context("TABLES_CONNECTION_STRING", azurite.ConnectionString));

        var s = result.Summary;
        BenchmarkRunnerTests.AssertBalanced(s, result.Seconds);
        Assert.True(s.TotalOkRequests > 0);

        // Requests cut off at the stop may or may not have landed; every other one is known.
        var landed = await azurite.CountEntitiesAsync(table);
        Assert.InRange(landed, s.TotalOk, s.TotalOk + s.TotalAbandoned);
        if (model == LoadModel.Unbounded)
        {
            Assert.Equal(300, s.TotalOffered);
        }
    }
}
