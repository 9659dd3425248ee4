using BenchEngine.Presets;
using BenchEngine.Targets;
using BenchWeb.Profiles;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Web.Profiles;

[UnitTest]
public sealed class PresetFilterTests
{
    private static IEnumerable<PresetEntry> Runs => PresetEntry.All.Where(p => p.Run is not null);

    private static List<string> Shown(PresetFilter filter) => [.. PresetEntry.All.Where(filter.Matches).Select(p => p.Id)];

    [Fact]
    public void All_HoldsEveryPreset_ThenEverySweep()
    {
        Assert.Equal(
            [.. SeedPresets.All.Select(p => p.Id), .. BenchEngine.Sweeps.SweepPresets.All.Select(p => p.Id)],
            PresetEntry.All.Select(p => p.Id));
    }

    [Fact]
    public void Group_ByTargetInTheRegistrysOrder_ThenByStudy_EachPresetOnce()
    {
        var groups = new PresetFilter().Group(Runs);

        var order = TargetRegistry.All.Select(t => t.Kind).ToList();
        Assert.Equal(order.Where(k => Runs.Any(p => p.Target.Kind == k)), groups.Select(g => g.Target.Kind));
        Assert.Contains(groups, g => g.Target.Kind == TargetKind.BlobStorage);
        var cosmos = groups.Single(g => g.Target.Kind == TargetKind.CosmosSql);
        Assert.Equal([PresetStudy.ClientTuning, PresetStudy.Latency, PresetStudy.Bulk], cosmos.Studies.Select(s => s.Study));
        Assert.Equal(["G1", "G2", "G4", "G14", "G17"], cosmos.Studies[0].Presets.Select(p => p.Id));
        Assert.Equal(Runs.Select(p => p.Id).Order(StringComparer.Ordinal), groups.SelectMany(g => g.Studies).SelectMany(s => s.Presets).Select(p => p.Id).Order(StringComparer.Ordinal));
        Assert.Equal(Runs.Count(), groups.Sum(g => g.Count));
    }

    [Fact]
    public void Matches_ByTarget_ByStudy_AndByEveryWordOfTheText_IgnoringCase()
    {
        Assert.Equal(["BL1", "BL2"], Shown(new PresetFilter(Target: "BlobStorage")));
        Assert.Equal(["G1", "G2", "G4", "G14", "G17", "G-study"], Shown(new PresetFilter(Study: "G")));
        Assert.Equal(["L3", "T-batch"], Shown(new PresetFilter(Target: "TableStorage")));
        Assert.Equal(["L4", "L5"], Shown(new PresetFilter(Target: "CosmosTable", Study: "L", Text: "WAVES")));
        Assert.Equal(["G2"], Shown(new PresetFilter(Text: "927")));
        Assert.Equal(["BL1", "Q1"], Shown(new PresetFilter(Text: "ten 503")));
        Assert.Empty(Shown(new PresetFilter(Target: "Redis", Study: "G")));
    }

    [Fact]
    public void Empty_MatchesEveryPreset()
    {
        var filter = new PresetFilter(Text: "  ");

        Assert.True(filter.IsEmpty);
        Assert.Equal(PresetEntry.All.Count, Shown(filter).Count);
        Assert.False(new PresetFilter(Study: "B").IsEmpty);
    }
}
