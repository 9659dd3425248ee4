using BenchEngine.Running;
using BenchWeb.Profiles;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Web.Profiles;

[UnitTest]
public sealed class PlanTextTests
{
    [Theory]
    [InlineData(1, "1 document")]
    [InlineData(2, "2 documents")]
    [InlineData(100_000, "100,000 documents")]
    public void Stop_CountsDocuments_InTheSingularOrPluralTheyNeed(long total, string expected) =>
        Assert.Equal(expected, PlanText.Stop(new RunPlan { Name = "n", Stop = new StopOptions { TotalDocuments = total } }));

    [Theory]
    [InlineData("TableStorage", 1, "1 entity")]
    [InlineData("CosmosTable", 20_000, "20,000 entities")]
    [InlineData("BlobStorage", 2, "2 blobs")]
    [InlineData("QueueStorage", 1, "1 message")]
    [InlineData("Redis", 10, "10 keys")]
    [InlineData("CosmosSql", 10, "10 documents")]
    public void Stop_CountsInWhatTheTargetStores(string kind, long total, string expected) =>
        Assert.Equal(expected, PlanText.Stop(new RunPlan
        {
            Name = "n",
            Target = new BenchEngine.Targets.TargetOptions { Kind = new BenchEngine.Targets.TargetKind(kind) },
            Stop = new StopOptions { TotalDocuments = total },
        }));

    [Fact]
    public void LoadAndStop_OneWorkerWritingOneDocument_SayItInTheSingular()
    {
        var plan = new RunPlan { Name = "n", Load = new LoadOptions { Concurrency = 1 }, Stop = new StopOptions { DocumentsPerWorker = 1 } };

        Assert.Equal("1 worker, closed loop", PlanText.Load(plan));
        Assert.Equal("1 worker × 1 document", PlanText.Stop(plan));
    }

    [Fact]
    public void Load_Waves_CountTheirRequests()
    {
        var plan = new RunPlan { Name = "n", Load = new LoadOptions { Model = LoadModel.Waves, Concurrency = 1 } };

        Assert.Equal("waves of 1 request", PlanText.Load(plan));
    }

    [Theory]
    [InlineData(10.0, "open loop, 10/s")]
    [InlineData(12_500.0, "open loop, 12,500/s")]
    [InlineData(2.5, "open loop, 2.5/s")]
    public void LoadModelName_OpenLoop_WritesItsRateAsTheFiguresAreWritten(double rate, string expected) =>
        Assert.Equal(expected, PlanText.LoadModelName(new LoadOptions { Model = LoadModel.OpenLoop, RatePerSecond = rate }));
}
