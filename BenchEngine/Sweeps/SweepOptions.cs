using System.Globalization;
using System.Text.Json;
using System.Text.Json.Nodes;
using System.Text.Json.Serialization;
using BenchEngine.Running;

namespace BenchEngine.Sweeps;

/// <summary>
/// A sweep: one plan run again and again with one setting changed each time (<see cref="Setting"/> over
/// <see cref="Values"/>), optionally once per value of a second setting (<see cref="SeriesSetting"/>, e.g. Gateway and
/// Direct), each step an ordinary run. The steps run one after another on the same client.
/// </summary>
public sealed record SweepOptions
{
    /// <summary>The most steps a sweep has (series × values).</summary>
    public const int MaxSteps = 50;

    /// <summary>The settings a sweep may change, by their plan path.</summary>
    public static readonly IReadOnlyList<string> SweepableSettings =
    [
        PlanSettingsCatalog.Concurrency.Path,
        PlanSettingsCatalog.BatchSize.Path,
        PlanSettingsCatalog.RatePerSecond.Path,
        PlanSettingsCatalog.Agents.Path,
        PlanSettingsCatalog.TargetSizeBytes.Path,
        "Target.Cosmos.ConnectionMode",
        "Target.Cosmos.GatewayMaxConnections",
        "Target.Cosmos.Bulk",
        "Target.Simulator.ProvisionedRequestUnits",
    ];

    /// <summary>The swept setting's plan path, e.g. <c>Load.Concurrency</c>.</summary>
    public string Setting { get; init; } = PlanSettingsCatalog.Concurrency.Path;

    /// <summary>Its values, in the order they run, as the plan writes them (<c>8</c>, <c>Gateway</c>, <c>true</c>); spaces around
    /// a value are not part of it (" 8" is 8, and the same step as "8").</summary>
    public IReadOnlyList<string> Values { get; init => field = Trimmed(value); } = [];

    /// <summary>An optional second setting: the sweep runs once per value of it (a series each), e.g. the connection mode.</summary>
    public string? SeriesSetting { get; init; }

    public IReadOnlyList<string> SeriesValues { get; init => field = Trimmed(value); } = [];

    /// <summary>Stop a series early when throughput stops improving; null: run every step.</summary>
    public EarlyStopOptions? EarlyStop { get; init; }

    /// <summary>The rule that names the recommended step.</summary>
    public KneeRule Knee { get; init; } = new();

    /// <summary>The series (one, unnamed, without a <see cref="SeriesSetting"/>).</summary>
    public IReadOnlyList<string?> Series => SeriesSetting is null ? [null] : [.. SeriesValues];

    /// <summary>Every step: the base plan with the series' and the step's values set, named after them.</summary>
    /// <exception cref="RunPlanValidationException">A value cannot be set on the plan (the errors name it).</exception>
    public IReadOnlyList<SweepStep> Steps(RunPlan basePlan)
    {
        ArgumentNullException.ThrowIfNull(basePlan);
        var steps = new List<SweepStep>();
        // Every value that cannot be set, not only the first: the user mends them at once.
        var refused = new List<FieldError>();
        foreach (var series in Series)
        {
            foreach (var value in Values)
            {
                var json = JsonNode.Parse(basePlan.ToJson())!.AsObject();
                if (series is not null)
                {
                    Set(json, SeriesSetting!, series);
                }

                Set(json, Setting, value);
                RunPlan read;
                try
                {
                    read = RunPlan.FromJson(json.ToJsonString());
                }
                catch (RunPlanValidationException)
                {
                    // The reader's own message names a JSON position in a document the user never wrote.
                    var (field, text, label) = series is not null && !Fits(SeriesSetting!, series) ? ("Sweep.SeriesValues", series, Label(SeriesSetting!)) : ("Sweep.Values", value, Label(Setting));
                    refused.Add(new FieldError(field, $"“{text}” is not a value {label} can take."));
                    continue;
                }

                var plan = read with
                {
                    Name = Truncate($"{basePlan.Name} · step {steps.Count + 1}: {Words(Setting, value)}{(series is null ? "" : $", {Words(SeriesSetting!, series)}")}"),
                };
                steps.Add(new SweepStep(steps.Count, series, value, plan));
            }
        }

        return refused.Count > 0 ? throw new RunPlanValidationException([.. refused.Distinct()]) : steps;
    }

    /// <summary>What is wrong with this sweep of <paramref name="basePlan"/>, by field (<c>Sweep.Values[2]</c>, …): the
    /// settings, the values, the rules, and every step's plan as the engine validates it.</summary>
    public IReadOnlyList<FieldError> Validate(RunPlan basePlan, ValidationAudience audience = ValidationAudience.Remote) =>
        Check(basePlan, plan => plan.Check(audience)).Errors;

    /// <summary>What is wrong with this sweep of <paramref name="basePlan"/> (see <see cref="Validate"/>), each step's plan
    /// checked once by <paramref name="checkStep"/> (the engine's rules, or a host's over them); when nothing is, every
    /// step's checked plan, in the order of <see cref="Steps"/>.</summary>
    public (IReadOnlyList<TChecked> Plans, IReadOnlyList<FieldError> Errors) Check<TChecked>(
        RunPlan basePlan, Func<RunPlan, (TChecked? Plan, IReadOnlyList<FieldError> Errors)> checkStep)
        where TChecked : class
    {
        ArgumentNullException.ThrowIfNull(basePlan);
        ArgumentNullException.ThrowIfNull(checkStep);
        var errors = new List<FieldError>();
        void Check(bool failed, string field, string message)
        {
            if (failed)
            {
                errors.Add(new FieldError(field, message));
            }
        }

        Check(!SweepableSettings.Contains(Setting, StringComparer.Ordinal), "Sweep.Setting", $"Not a setting a sweep can change: one of {string.Join(", ", SweepableSettings)}.");
        Check(SeriesSetting is not null && !SweepableSettings.Contains(SeriesSetting, StringComparer.Ordinal), "Sweep.SeriesSetting", $"Not a setting a sweep can change: one of {string.Join(", ", SweepableSettings)}.");
        Check(SeriesSetting is not null && string.Equals(SeriesSetting, Setting, StringComparison.Ordinal), "Sweep.SeriesSetting", "The series setting must differ from the swept one.");
        Check(Values.Count < 2, "Sweep.Values", "Give at least two values.");
        Check(SeriesSetting is not null && SeriesValues.Count < 1, "Sweep.SeriesValues", "Give at least one value for each series.");
        Check(SeriesSetting is null && SeriesValues.Count > 0, "Sweep.SeriesValues", "Series values need a series setting.");
        Check(Values.Count * Math.Max(1, SeriesValues.Count) > MaxSteps, "Sweep.Values", $"At most {MaxSteps} steps in all (series × values).");
        Check(Values.Any(v => v is null || v.Length is 0 or > 100), "Sweep.Values", "Each value is 1 to 100 characters.");
        Check(SeriesValues.Any(v => v is null || v.Length is 0 or > 100), "Sweep.SeriesValues", "Each value is 1 to 100 characters.");
        Check(Values.Distinct(StringComparer.Ordinal).Count() != Values.Count, "Sweep.Values", "Each value once.");
        if (EarlyStop is { } early)
        {
            Check(early.MinGainPercent is < 0 or > 1_000 || double.IsNaN(early.MinGainPercent), "Sweep.EarlyStop.MinGainPercent", "Between 0 and 1,000 %.");
            Check(early.StepsWithoutGain is < 1 or > MaxSteps, "Sweep.EarlyStop.StepsWithoutGain", $"Between 1 and {MaxSteps}.");
        }

        Check(Knee.P99Multiple is < 1 or > 1_000 || double.IsNaN(Knee.P99Multiple), "Sweep.Knee.P99Multiple", "Between 1 and 1,000 (times the best p99).");
        Check(Knee.MaxThrottledPercent is < 0 or > 100 || double.IsNaN(Knee.MaxThrottledPercent), "Sweep.Knee.MaxThrottledPercent", "A percentage between 0 and 100.");
        Check(Knee.PlateauPercent is < 0 or > 50 || double.IsNaN(Knee.PlateauPercent), "Sweep.Knee.PlateauPercent", "A percentage between 0 and 50 (of the highest throughput).");
        Check(Knee.ClientLimitedPercent is <= 0 or > 100 || double.IsNaN(Knee.ClientLimitedPercent), "Sweep.Knee.ClientLimitedPercent", "A percentage above 0, at most 100.");
        Check(Knee.ClientCpuPercent is not null, "Sweep.Knee.ClientCpuPercent", "No longer a setting: a step's client is judged by the client limits (scheduling lag, host and process CPU, thread pool, GC); a step is client-limited past clientLimitedPercent of its seconds.");
        if (errors.Count > 0)
        {
            return ([], errors);
        }

        IReadOnlyList<SweepStep> steps;
        try
        {
            steps = Steps(basePlan);
        }
        catch (RunPlanValidationException ex)
        {
            return ([], ex.Errors);
        }

        // Two values written differently that set the same ("2" and "02", "8" and "8.0") would run one step twice.
        foreach (var same in steps.GroupBy(s => (s.Series, (s.Plan with { Name = "" }).ToJson())).Where(g => g.Count() > 1))
        {
            errors.Add(new FieldError("Sweep.Values", $"“{same.First().Value}” and “{same.Skip(1).First().Value}” set the same value: each value once."));
        }

        if (errors.Count > 0)
        {
            return ([], errors);
        }

        var plans = new List<TChecked>();
        var byStep = new List<(string, IReadOnlyList<FieldError>)>();
        foreach (var step in steps)
        {
            var field = step.Series is null ? $"Sweep.Values[{Values.ToList().IndexOf(step.Value)}]" : $"Sweep.Values[{Values.ToList().IndexOf(step.Value)}] ({step.Series})";
            var (plan, stepErrors) = checkStep(step.Plan);
            byStep.Add((field, stepErrors));
            if (plan is not null)
            {
                plans.Add(plan);
            }
        }

        errors.AddRange(KeyStepErrors(byStep));
        return (errors.Count == 0 ? plans : [], errors);
    }

    /// <summary>The errors of a sweep's steps, each keyed where it is to be fixed: one that every step has (same field, same
    /// message) is the base plan's, keyed by its own field (<c>Target.Cosmos.Endpoint</c>); one only some steps have comes
    /// from their values, keyed by the step (<c>Sweep.Values[2]</c>) with its field in front.</summary>
    /// <param name="steps">Each step's key (<c>Sweep.Values[2]</c>) and its errors, for every step of the sweep.</param>
    public static IReadOnlyList<FieldError> KeyStepErrors(IReadOnlyList<(string Step, IReadOnlyList<FieldError> Errors)> steps)
    {
        ArgumentNullException.ThrowIfNull(steps);
        var everyStep = steps.Count == 0 ? [] : steps.Skip(1).Aggregate(steps[0].Errors.ToHashSet(), (common, step) =>
        {
            common.IntersectWith(step.Errors);
            return common;
        });
        var keyed = steps.Count == 0 ? [] : steps[0].Errors.Where(everyStep.Contains).Distinct().ToList();
        foreach (var (step, errors) in steps)
        {
            keyed.AddRange(errors.Where(e => !everyStep.Contains(e)).Select(e => new FieldError(step, $"{e.Field}: {e.Message}")));
        }

        return keyed;
    }

    private static List<string> Trimmed(IReadOnlyList<string>? values) => values is null ? [] : [.. values.Select(v => v?.Trim()!)];

    // Whether the value alone can be set on a default plan (to tell a bad series value from a bad swept one).
    private static bool Fits(string path, string value)
    {
        var json = JsonNode.Parse(new RunPlan().ToJson())!.AsObject();
        Set(json, path, value);
        try
        {
            RunPlan.FromJson(json.ToJsonString());
            return true;
        }
        catch (RunPlanValidationException)
        {
            return false;
        }
    }

    /// <summary>A setting's label, as the profile editor shows it: <c>Load.Concurrency</c> → "Concurrency".</summary>
    public static string Label(string path) => SettingLabels.Of(path);

    /// <summary>A setting and its value in a sentence: "concurrency 100", "bulk mode on"; a choice says itself ("Gateway").</summary>
    public static string Words(string path, string value) =>
        double.TryParse(value, NumberStyles.Float, CultureInfo.InvariantCulture, out _) ? $"{SettingLabels.InSentence(Label(path))} {value}"
        : value is "true" or "false" ? $"{SettingLabels.InSentence(Label(path))} {(value is "true" ? "on" : "off")}"
        : value;

    // Sets a plan setting by its path (segments camel-cased, as the plan's JSON writes them). A number, true or false is
    // written as such; any other value as text (enum names: Gateway, Direct).
    private static void Set(JsonObject plan, string path, string value)
    {
        var segments = path.Split('.').Select(s => JsonNamingPolicy.CamelCase.ConvertName(s)).ToList();
        var node = plan;
        foreach (var segment in segments[..^1])
        {
            if (node[segment] is not JsonObject child)
            {
                child = [];
                node[segment] = child;
            }

            node = child;
        }

        // A finite number is written as the number it reads as ("+5", " 16", "1e3" included); NaN, ±Infinity and anything
        // else as text, which the plan's reader then refuses for a number setting.
        node[segments[^1]] = value is "true" or "false" ? JsonValue.Create(value is "true")
            : double.TryParse(value, NumberStyles.Float, CultureInfo.InvariantCulture, out var number) && double.IsFinite(number) ? JsonValue.Create(number)
            : JsonValue.Create(value);
    }

    /// <summary>The name of a step's re-run: the step's, marked.</summary>
    public static string ReRunName(string stepName) => Truncate($"{stepName} · re-run");

    private static string Truncate(string name) => name.Length <= RunPlan.MaxNameLength ? name : name[..RunPlan.MaxNameLength];
}

/// <summary>One step of a sweep: its number (from 0), its series' value (null without series), its value and its plan.</summary>
public sealed record SweepStep(int Index, string? Series, string Value, RunPlan Plan);

/// <summary>Stop a series when throughput stops improving: after <see cref="StepsWithoutGain"/> steps in a row that each
/// add less than <see cref="MinGainPercent"/> % to the best throughput so far.</summary>
public sealed record EarlyStopOptions
{
    public double MinGainPercent { get; init; } = 5;

    public int StepsWithoutGain { get; init; } = 2;
}

/// <summary>How the recommended step is chosen: among the steps before the first one whose p99 exceeds
/// <see cref="P99Multiple"/> × the best p99 of the series or whose throttled share exceeds <see cref="MaxThrottledPercent"/>,
/// the first whose throughput is within <see cref="PlateauPercent"/> of the highest; each step judged on its steady window
/// and each crossing confirmed by the next step or a re-run. A step whose client was the limit
/// (<see cref="ClientLimitedPercent"/>) is never the service's limit.</summary>
public sealed record KneeRule
{
    public double P99Multiple { get; init; } = 3;

    public double MaxThrottledPercent { get; init; } = 1;

    /// <summary>Steps whose throughput is within this share of the highest are one plateau, and the first of them (the least
    /// concurrency, rate or client for the same throughput) is recommended: on a plateau the highest figure is chance. 0
    /// recommends the highest-throughput step.</summary>
    /// <remarks>10 %, not less: beside other busy processes the client loses a few percent of its throughput at the knee (2–9 %
    /// measured beside two CPU hogs on 2 cores, README "Sweeps"), too little for its verdict to call the step client-limited
    /// but enough to push a plateau step past a tighter rule; the step before a plateau in a doubling sweep reaches about half
    /// the highest throughput, so a healthy client's recommendation is the same with 5 % or 10 %.</remarks>
    public double PlateauPercent { get; init; } = 10;

    /// <summary>A step is client-limited when at least this share of its full seconds were client-limited
    /// (<see cref="Metrics.SecondSnapshot.IsClientLimited"/>, by the client limits the run was measured with).</summary>
    public double ClientLimitedPercent { get; init; } = 50;

    /// <summary>Read from sweeps saved before the one client-limited verdict, and refused in a new sweep: a step's client is
    /// judged by the client limits (<see cref="Metrics.ClientLimits"/>), not by a CPU figure of its own.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public double? ClientCpuPercent { get; init; }
}
