using BenchEngine.Presets;
using BenchEngine.Targets;
using BenchWeb.Profiles;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Web.Profiles;

[UnitTest]
public sealed class PresetEntryTests
{
    /// <summary>Identifiers of the plan's settings that a reader should never meet in what a preset shows.</summary>
    private static readonly string[] Identifiers =
        ["SmallDto", "PerformanceData", "BulkRecord", "CsvFile", "JsonTemplate", "FieldValue", "FixedKeys", "ClosedLoop", "OpenLoop", "CosmosSql", "BlobStorage", "QueueStorage", "TableStorage", "CosmosTable"];

    public static TheoryData<string> Ids() => new(PresetEntry.All.Select(p => p.Id));

    [Fact]
    public void Takes_AtTheOriginalsRate_WhenItPublishedOne()
    {
        Assert.Equal("about 27 min 41 s (1,000,000 documents at 602/s, the original's rate)", PresetEntry.Takes(SeedPresets.Find("G1")!));
    }

    [Theory]
    [InlineData("L3", "20,000 entities")]
    [InlineData("L4", "20,000 entities")]
    [InlineData("BL1", "10,000 blobs")]
    [InlineData("Q2", "1,000 messages")]
    [InlineData("RD2", "1,000,000 keys")]
    public void Takes_AtTheSimulatorModelsEstimate_InWhatTheTargetStores_WhenNoRateIsKnown(string id, string count)
    {
        var preset = SeedPresets.Find(id)!;
        var rate = SimulatorEstimate.Of(SeedPresets.OnSimulator(preset.Plan))!.DocumentsPerSecond;

        var takes = PresetEntry.Takes(preset);

        Assert.Null(preset.OriginalInsertsPerSecond);
        Assert.StartsWith("about ", takes, StringComparison.Ordinal);
        Assert.EndsWith($"({count} at {rate:N0}/s, an estimate from the simulator's model)", takes, StringComparison.Ordinal);
    }

    [Theory]
    [MemberData(nameof(Ids))]
    public void Preset_TellsInOneLineOfWords_AndShowsNoIdentifier(string id)
    {
        var preset = PresetEntry.All.Single(p => p.Id == id);
        var shown = string.Join(" ", preset.Title, preset.Tells, preset.Study, preset.Length, preset.PlanLine, preset.OriginalResult);

        Assert.InRange(preset.Tells.Length, 20, 140);
        Assert.DoesNotContain('\n', preset.Tells);
        Assert.EndsWith(".", preset.Tells, StringComparison.Ordinal);
        Assert.All(Identifiers, identifier => Assert.DoesNotContain(identifier, shown, StringComparison.Ordinal));
        Assert.DoesNotContain("unknown", preset.Length ?? "", StringComparison.Ordinal);
    }

    [Fact]
    public void OnSimulator_SaysWhatItChecks_ForAServiceTheSimulatorDoesNotModel()
    {
        Assert.Equal("On the simulator this runs as a simulated Cosmos DB: it checks the plan, not Blob Storage's speed.", PresetEntry.OnSimulator(TargetKind.BlobStorage.Module));
        Assert.Contains("same RU/s and partitions", PresetEntry.OnSimulator(TargetKind.CosmosSql.Module), StringComparison.Ordinal);
    }
}
