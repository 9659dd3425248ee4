using BenchEngine.Presets;
using BenchEngine.Running;
using BenchWeb.Profiles;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Web.Profiles;

[UnitTest]
public sealed class RunLengthTests
{
    [Fact]
    public void Describe_DurationOnly_IsTheDuration() =>
        Assert.Equal("1 min 30 s", RunLength.Describe(new RunPlan { Name = "n", Stop = new StopOptions { DurationSeconds = 90 } }));

    [Fact]
    public void Describe_OpenLoop_DividesTheDocumentsByItsRate()
    {
        var plan = new RunPlan
        {
            Name = "n",
            Load = new LoadOptions { Model = LoadModel.OpenLoop, RatePerSecond = 100 },
            Stop = new StopOptions { TotalDocuments = 20_000 },
        };

        Assert.Equal("about 3 min 20 s (20,000 documents at 100/s, the open loop's rate)", RunLength.Describe(plan));
    }

    [Fact]
    public void Describe_ClosedLoopWithoutAnExpectedRate_SaysUnknownRatherThanGuess()
    {
        var plan = new RunPlan { Name = "n", Load = new LoadOptions { Concurrency = 10 }, Stop = new StopOptions { DocumentsPerWorker = 100_000 } };

        Assert.Equal("unknown (1,000,000 documents at a rate only a run will tell)", RunLength.Describe(plan));
        Assert.Equal("at most 10 min (1,000,000 documents at a rate only a run will tell)",
            RunLength.Describe(plan with { Stop = plan.Stop with { DurationSeconds = 600 } }));
    }

    [Fact]
    public void Describe_Preset_UsesTheOriginalsRate()
    {
        var g1 = SeedPresets.Find("G1")!;

        Assert.Equal("about 27 min 41 s (1,000,000 documents at 602/s, the original's rate)",
            RunLength.Describe(g1.Plan, g1.OriginalInsertsPerSecond, "the original's rate"));
    }

    [Fact]
    public void Describe_DurationShorterThanTheDocumentsTake_IsTheDuration()
    {
        var plan = new RunPlan
        {
            Name = "n",
            Load = new LoadOptions { Model = LoadModel.OpenLoop, RatePerSecond = 10 },
            Stop = new StopOptions { TotalDocuments = 10_000, DurationSeconds = 60 },
        };

        Assert.Equal("1 min (its duration; 10,000 documents at 10/s, the open loop's rate would take 16 min 40 s)", RunLength.Describe(plan));
    }
}
