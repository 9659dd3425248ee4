using System.Globalization;
using System.Text.Json.Nodes;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Engine.Running;

/// <summary>The rules hold a setting to the bounds its descriptor declares, and a target's setting to those its module's
/// field declares: the bound itself is accepted (refused when it is exclusive), a value just outside is refused on the
/// setting's own path.</summary>
[UnitTest]
public sealed class SettingBoundsTests
{
    /// <summary>The plan's settings with bounds.</summary>
    public static TheoryData<string> Bounded { get; } =
        [.. PlanSettingsCatalog.Plan.Where(d => (d.Min ?? d.Max) is not null).Select(d => d.Path)];

    /// <summary>The target fields with bounds, of every kind of target.</summary>
    public static TheoryData<string> TargetBounded { get; } = [.. TargetBoundedPaths()];

    [Theory]
    [MemberData(nameof(Bounded))]
    public void Setting_BoundAccepted_JustOutsideRefusedOnItsPath(string path)
    {
        var setting = PlanSettingsCatalog.Find(path)!;
        AssertBounds(path, setting.ValueType, setting.Min, setting.MinExclusive, setting.Max, setting.MaxExclusive, (value, whole) => Refused(setting, value, whole));
    }

    [Theory]
    [MemberData(nameof(TargetBounded))]
    public void TargetField_BoundAccepted_JustOutsideRefusedOnItsPath(string path)
    {
        var field = TargetSettings.Field(path)!;
        AssertBounds(path, field.ValueType, field.Min, field.MinExclusive, field.Max, maxExclusive: false, (value, whole) => Refused(field, value, whole));
    }

    [Theory]
    [MemberData(nameof(TargetBounded))]
    public void TargetField_Descriptor_HasTheFieldsBounds(string path)
    {
        var field = TargetSettings.Field(path)!;
        var setting = SettingDescriptor.ForTarget(field);

        Assert.Equal((field.Min, field.Max, field.MinExclusive, false), (setting.Min, setting.Max, setting.MinExclusive, setting.MaxExclusive));
    }

    [Fact]
    public void Bounded_HoldsThePlansRangeRules()
    {
        Assert.Contains(PlanSettingsCatalog.Concurrency.Path, Bounded);
        Assert.Contains(PlanSettingsCatalog.StageRatePerSecond.Path, Bounded);
        Assert.Contains(PlanSettingsCatalog.DiagnosticsSlowestPerSecond.Path, Bounded);
        Assert.Contains(PlanSettingsCatalog.TargetSizeBytes.Path, Bounded);
        Assert.Contains(PlanSettingsCatalog.PartitionKeyCount.Path, Bounded);
        Assert.Contains(PlanSettingsCatalog.HotKeyFraction.Path, Bounded);
    }

    [Fact]
    public void TargetBounded_HoldsTheTargetsRangeRules()
    {
        string[] expected =
        [
            "Target.Simulator.ProvisionedRequestUnits", "Target.Simulator.PhysicalPartitions", "Target.Simulator.MedianLatencyMs",
            "Target.Cosmos.GatewayMaxConnections", "Target.Cosmos.RequestUnits",
            "Target.Redis.Port", "Target.Redis.Database", "Target.Redis.ConnectTimeoutMs",
        ];

        Assert.Equal(expected.Order(StringComparer.Ordinal), TargetBoundedPaths().Order(StringComparer.Ordinal));
    }

    [Fact]
    public void TargetField_NotANumber_IsSaidSo()
    {
        var plan = new RunPlan { Name = "bounds", Target = new TargetOptions { Kind = TargetKind.Simulated, Simulator = new() { MedianLatencyMs = double.NaN } } };

        Assert.Contains(plan.Validate(), e => e.Field == "Target.Simulator.MedianLatencyMs" && e.Message == RunPlan.NotANumber);
    }

    private static IEnumerable<string> TargetBoundedPaths() =>
        TargetRegistry.All.SelectMany(m => m.Fields).Where(f => (f.Min ?? f.Max) is not null).Select(f => f.Path).Distinct(StringComparer.Ordinal);

    // The minimum refused (exclusive) or accepted with a value just below refused; the maximum likewise.
    private static void AssertBounds(string path, Type valueType, double? minimum, bool minExclusive, double? maximum, bool maxExclusive, Func<double, bool, bool> refused)
    {
        var whole = (Nullable.GetUnderlyingType(valueType) ?? valueType) is var type && (type == typeof(int) || type == typeof(long));
        double Step(double bound) => whole ? 1 : Math.Max(1e-6, Math.Abs(bound) * 1e-6);

        if (minimum is { } min)
        {
            Assert.True(refused(minExclusive ? min : min - Step(min), whole) && !refused(minExclusive ? min + Step(min) : min, whole),
                $"{path}: the minimum {min.ToString(CultureInfo.InvariantCulture)}");
        }

        if (maximum is { } max)
        {
            Assert.True(refused(maxExclusive ? max : max + Step(max), whole) && !refused(maxExclusive ? max - Step(max) : max, whole),
                $"{path}: the maximum {max.ToString(CultureInfo.InvariantCulture)}");
        }
    }

    /// <summary>Whether a plan of the field's kind of target refuses <paramref name="value"/> on the field's path.</summary>
    private static bool Refused(TargetField field, double value, bool whole)
    {
        var kind = TargetRegistry.All.First(m => m.Fields.Contains(field)).Kind;
        var type = Nullable.GetUnderlyingType(field.ValueType) ?? field.ValueType;
        var typed = whole ? Convert.ChangeType((long)value, type, CultureInfo.InvariantCulture) : value;
        var plan = new RunPlan { Name = "bounds", Target = field.With(new TargetOptions { Kind = kind }, typed) };
        return plan.Validate().Any(e => e.Field == field.Path);
    }

    /// <summary>Whether a plan where the setting's rule applies (an open loop for a rate or an unsent share, one stage for a
    /// stage's setting, workers enough for every agent) refuses <paramref name="value"/> on the setting's path.</summary>
    private static bool Refused(SettingDescriptor setting, double value, bool whole)
    {
        var openLoop = setting == PlanSettingsCatalog.RatePerSecond || setting == PlanSettingsCatalog.StageRatePerSecond
            || setting == PlanSettingsCatalog.AutoStopDropped || setting == PlanSettingsCatalog.MaxDroppedPercent;
        // The key count's rule applies to a fixed set of keys, the hot key's share to a hot key (of two keys or more).
        var strategy = setting == PlanSettingsCatalog.PartitionKeyCount ? PartitionKeyStrategy.FixedKeys
            : setting == PlanSettingsCatalog.HotKeyFraction ? PartitionKeyStrategy.HotKey
            : (PartitionKeyStrategy?)null;
        var plan = new RunPlan
        {
            Name = "bounds",
            Workload = new WorkloadOptions { PartitionKey = strategy is { } s ? new PartitionKeyOptions { Strategy = s } : null },
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
