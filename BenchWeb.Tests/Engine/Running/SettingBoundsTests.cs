using System.Globalization;
using System.Text.Json.Nodes;
using BenchEngine.Running;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Engine.Running;

/// <summary>The rules hold a setting to the bounds its descriptor declares: the bound itself is accepted (refused when
/// the minimum is exclusive), a value just outside is refused on the setting's own path.</summary>
[UnitTest]
public sealed class SettingBoundsTests
{
    /// <summary>The plan's settings with bounds; the workload's have rules of their own (the workload's validator).</summary>
    public static TheoryData<string> Bounded { get; } =
        [.. PlanSettingsCatalog.Plan.Where(d => (d.Min ?? d.Max) is not null && !d.Path.StartsWith("Workload.", StringComparison.Ordinal)).Select(d => d.Path)];

    [Theory]
    [MemberData(nameof(Bounded))]
    public void Setting_BoundAccepted_JustOutsideRefusedOnItsPath(string path)
    {
        var setting = PlanSettingsCatalog.Find(path)!;
        var whole = (Nullable.GetUnderlyingType(setting.ValueType) ?? setting.ValueType) is var type && (type == typeof(int) || type == typeof(long));
        double Step(double bound) => whole ? 1 : Math.Max(1e-6, Math.Abs(bound) * 1e-6);

        if (setting.Min is { } min)
        {
            Assert.True(Refused(setting, setting.MinExclusive ? min : min - Step(min), whole) && !Refused(setting, setting.MinExclusive ? min + Step(min) : min, whole),
                $"{path}: the minimum {min.ToString(CultureInfo.InvariantCulture)}");
        }

        if (setting.Max is { } max)
        {
            Assert.False(Refused(setting, max, whole), $"{path}: the maximum {max.ToString(CultureInfo.InvariantCulture)} is refused");
            Assert.True(Refused(setting, max + Step(max), whole), $"{path}: above the maximum {max.ToString(CultureInfo.InvariantCulture)} is accepted");
        }
    }

    [Fact]
    public void Bounded_HoldsThePlansRangeRules()
    {
        Assert.Contains(PlanSettingsCatalog.Concurrency.Path, Bounded);
        Assert.Contains(PlanSettingsCatalog.StageRatePerSecond.Path, Bounded);
        Assert.Contains(PlanSettingsCatalog.DiagnosticsSlowestPerSecond.Path, Bounded);
    }

    /// <summary>Whether a plan where the setting's rule applies (an open loop for a rate or an unsent share, one stage for a
    /// stage's setting, workers enough for every agent) refuses <paramref name="value"/> on the setting's path.</summary>
    private static bool Refused(SettingDescriptor setting, double value, bool whole)
    {
        var openLoop = setting == PlanSettingsCatalog.RatePerSecond || setting == PlanSettingsCatalog.StageRatePerSecond
            || setting == PlanSettingsCatalog.AutoStopDropped || setting == PlanSettingsCatalog.MaxDroppedPercent;
        var plan = new RunPlan
        {
            Name = "bounds",
            Load = new LoadOptions
            {
                Model = openLoop ? LoadModel.OpenLoop : LoadModel.ClosedLoop,
                Concurrency = 10_000,
                RatePerSecond = openLoop && !setting.PerStage ? 10 : null,
                Stages = setting.PerStage ? [new LoadStage { DurationSeconds = 10, Concurrency = openLoop ? null : 1, RatePerSecond = openLoop ? 1 : null }] : [],
            },
            Stop = new StopOptions { DurationSeconds = setting.PerStage ? null : 10 },
        };
        var json = JsonNode.Parse(plan.ToJson())!.AsObject();
        var segments = setting.Path.Split('.');
        JsonNode node = json;
        foreach (var segment in segments[..^1])
        {
            var name = JsonName(segment.Replace("[]", "", StringComparison.Ordinal));
            node = segment.EndsWith("[]", StringComparison.Ordinal) ? node[name]![0]! : node[name] ??= new JsonObject();
        }

        node[JsonName(segments[^1])] = whole ? JsonValue.Create((long)value) : JsonValue.Create(value);
        var field = setting.PerStage ? setting.At(0) : setting.Path;
        return RunPlan.FromJson(json.ToJsonString()).Validate().Any(e => e.Field == field);
    }

    private static string JsonName(string property) => char.ToLowerInvariant(property[0]) + property[1..];
}
