using System.Globalization;
using System.Text.Json;
using BenchEngine.Metrics;
using BenchEngine.Running;
using BenchEngine.Sweeps;
using BenchEngine.Targets;
using BenchWeb.Provenance;
using BenchWeb.Sweeps;
using BenchWeb.Transfer;

namespace BenchWeb.Headless;

/// <summary>The sweep form of the <c>run</c> command (<c>--sweep sweep.json</c>): the steps run one after another on this
/// machine (a step whose crossing of the knee rule the next step does not confirm is run once more, and said so), the
/// steps table, what the knee made of each step and each series' knee are printed, the result file holds the steps, the knees and each step's
/// run export, and the exit code is decided by the plan's thresholds applied to the recommended step.</summary>
internal static class HeadlessSweep
{
    /// <summary>Runs the sweep of <paramref name="sweepPath"/> over <paramref name="basePlan"/> with <paramref name="runner"/>
    /// (the engine with the configured client limits: every step is judged by them) and returns the exit code. Each step's
    /// run export carries <paramref name="metadata"/>: the steps of one sweep come from the same place.</summary>
    public static async Task<int> RunAsync(
        BenchmarkRunner runner, RunPlan basePlan, string sweepPath, string summaryPath, double? baselineThroughput, RunMetadata metadata, TextWriter output, TextWriter error, CancellationToken cancellationToken)
    {
        SweepOptions sweep;
        try
        {
            sweep = JsonSerializer.Deserialize<SweepOptions>(await HeadlessCommand.ReadProfileAsync(sweepPath, cancellationToken), RunPlan.JsonOptions)
                ?? throw new InvalidDataException("it is empty.");
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or InvalidDataException or JsonException)
        {
            await error.WriteLineAsync($"Sweep '{sweepPath}' cannot be read: {(ex is JsonException json ? JsonErrorText.Describe(json) : ex.Message)}");
            return HeadlessCommand.ExitInvalidInput;
        }

        var (checkedSteps, stepProblems) = sweep.Check(basePlan, plan => plan.Check(ValidationAudience.Local));
        var problems = stepProblems.ToList();
        // As the form and the API refuse it: a setting the profile's target does not read makes every step the same run.
        problems.AddRange(SweepAxes.Errors(sweep, basePlan));
        if (problems.Count == 0 && sweep.Steps(basePlan).Any(s => s.Plan.Load.Agents != 1))
        {
            // Running a step's whole load here would measure one client as if it were several.
            problems.Add(new FieldError("Sweep.Values", "Load.Agents: a headless sweep is one client: sweep the number of agents from a dashboard in shared mode."));
        }

        if (problems is { Count: > 0 } invalid)
        {
            await HeadlessCommand.PrintInvalidAsync(error, sweepPath, new RunPlanValidationException(invalid));
            return HeadlessCommand.ExitInvalidInput;
        }

        var steps = sweep.Steps(basePlan);
        var results = new List<SweepStepResult>();
        var runs = new List<(SweepStep Step, RunResult Run, SweepStepResult Result)>();
        var context = TargetContext.FromEnvironment();
        var c = CultureInfo.InvariantCulture;

        // One step or its re-run; false when it was cancelled.
        async Task<bool> RunStepAsync(SweepStep step, string? reRunReason, List<SweepStepResult> inSeries)
        {
            cancellationToken.ThrowIfCancellationRequested();
            // A re-run is a plan of its own (its name says so), checked when it starts.
            var plan = reRunReason is null ? checkedSteps[step.Index] : (step.Plan with { Name = SweepOptions.ReRunName(step.Plan.Name) }).EnsureValid(ValidationAudience.Local);
            await output.WriteLineAsync(reRunReason is null
                ? string.Create(c, $"Step {step.Index + 1}/{steps.Count}: {plan.Plan.Name}")
                : string.Create(c, $"Step {step.Index + 1}/{steps.Count} again (re-run: {reRunReason}): {plan.Plan.Name}"));
            var run = await runner.RunAsync(plan, context, null, cancellationToken);
            var result = SweepStepResult.From(step, run.Status, run.Summary, run.Seconds, sweep.Knee);
            result = reRunReason is null ? result : result with { IsReRun = true, ReRunReason = reRunReason };
            runs.Add((step, run, result));
            inSeries.Add(result);
            results.Add(result);
            await output.WriteLineAsync(string.Create(c, $"  {run.Status} ({run.StopReason}) · average {result.AverageThroughput ?? result.Throughput:N1}/s · steady {Figure(result.SteadyThroughput, "N1")}/s · p99 {Figure(result.P99Ms)} ms · steady p99 {Figure(result.SteadyP99Ms)} ms · throttled {result.ThrottledPercent:F2} %"));
            if (result.ClientLimited)
            {
                await output.WriteLineAsync($"  client-limited, not judged: {result.ClientLimitReason}");
            }
            else if (result.ClientLimitedSeconds > 0)
            {
                await output.WriteLineAsync(string.Create(c, $"  {result.ClientLimitedSeconds} client-limited second(s) left out: {result.ClientLimitReason}"));
            }

            return run.Status != RunStatus.Cancelled;
        }

        async Task<bool> ReRunWhileNeededAsync(IReadOnlyList<SweepStep> series, List<SweepStepResult> inSeries, bool seriesEnded)
        {
            while (KneeDetector.NextReRun(inSeries, sweep.Knee, seriesEnded, sweep.Setting) is { } reRun)
            {
                if (!await RunStepAsync(series.Single(s => s.Index == reRun.Index), reRun.Reason, inSeries))
                {
                    return false;
                }
            }

            return true;
        }

        foreach (var series in steps.GroupBy(s => s.Series).Select(g => g.ToList()))
        {
            var inSeries = new List<SweepStepResult>();
            foreach (var step in series)
            {
                if (!await RunStepAsync(step, null, inSeries) || !await ReRunWhileNeededAsync(series, inSeries, seriesEnded: false))
                {
                    return HeadlessCommand.ExitCancelled;
                }

                if (EarlyStop.ShouldStop(inSeries, sweep.EarlyStop))
                {
                    await output.WriteLineAsync("  throughput no longer improving: the rest of this series is skipped");
                    break;
                }
            }

            // Its last step has no next step to confirm a crossing: a re-run does.
            if (!await ReRunWhileNeededAsync(series, inSeries, seriesEnded: true))
            {
                return HeadlessCommand.ExitCancelled;
            }
        }

        var knees = KneeDetector.Find(results, sweep.Knee, sweep.Setting);
        await output.WriteLineAsync();
        await output.WriteLineAsync(Table(results, knees, sweep.Setting));
        foreach (var note in knees.SelectMany(k => k.Notes))
        {
            await output.WriteLineAsync(string.Create(c, $"Step {note.Index + 1}{(note.ReRun ? " (re-run)" : "")}: {note.Text}"));
        }

        foreach (var knee in knees)
        {
            await output.WriteLineAsync($"Knee{(knee.Series is null ? "" : $" ({knee.Series})")}: {knee.Reason}");
        }

        // Each series' recommended step is judged by the plan's thresholds, on the run the knee judged (its re-run when it
        // has one); the sweep passes when all of them do.
        var verdicts = new List<(KneeResult Knee, Verdict Verdict)>();
        foreach (var knee in knees)
        {
            if (knee.RecommendedIndex is { } index && basePlan.Thresholds is { IsEmpty: false } thresholds)
            {
                var judged = KneeDetector.Judged(knee.Steps).Single(s => s.Index == index);
                var run = runs.Last(r => r.Step.Index == index && r.Result.IsReRun == judged.IsReRun).Run;
                verdicts.Add((knee, ThresholdEvaluator.Evaluate(run.Status, run.Summary, thresholds, baselineThroughput)));
            }
        }

        var document = new HeadlessSweepResult
        {
            Sweep = sweep,
            Steps = results,
            Knees = knees,
            Runs = [.. runs.Select(r => RunTransfer.FromHeadlessRun(r.Result.IsReRun ? r.Step.Plan with { Name = SweepOptions.ReRunName(r.Step.Plan.Name) } : r.Step.Plan, r.Run, r.Run.Summary.ProvisionedRequestUnitsPerSecond, null, runner.Time.GetUtcNow(), metadata))],
        };
        try
        {
            await File.WriteAllTextAsync(summaryPath, JsonSerializer.Serialize(document, RunPlan.JsonOptions), CancellationToken.None);
            await output.WriteLineAsync($"Result written to {summaryPath}");
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            await error.WriteLineAsync($"The result could not be written to '{summaryPath}': {ex.GetType().Name}.");
            return HeadlessCommand.ExitFailed;
        }

        if (knees.Any(k => k.RecommendedIndex is null))
        {
            await error.WriteLineAsync("No step to recommend: see the knee above.");
            return HeadlessCommand.ExitFailed;
        }

        foreach (var (knee, verdict) in verdicts)
        {
            foreach (var check in verdict.Checks)
            {
                await output.WriteLineAsync($"  {(check.Passed ? "pass" : "FAIL")}  step {knee.RecommendedIndex + 1}: {check.Message}");
            }
        }

        if (verdicts.Count > 0)
        {
            await output.WriteLineAsync($"Thresholds at the recommended step: {(verdicts.All(v => v.Verdict.Passed) ? "passed" : "FAILED")}");
        }

        return verdicts.Any(v => !v.Verdict.Passed) ? HeadlessCommand.ExitThresholdsFailed : HeadlessCommand.ExitCompleted;
    }

    private static string Table(IReadOnlyList<SweepStepResult> results, IReadOnlyList<KneeResult> knees, string setting)
    {
        var recommended = knees.Where(k => k.RecommendedIndex is not null)
            .Select(k => KneeDetector.Judged(k.Steps).Single(s => s.Index == k.RecommendedIndex)).Select(s => (s.Index, s.IsReRun)).ToHashSet();
        var c = CultureInfo.InvariantCulture;
        var lines = new List<string>
        {
            string.Create(c, $"{"step",7}  {"series",-10} {SweepOptions.Label(setting),-14} {"status",-10} {"avg/s",10} {"avg RU/s",9} {"steady/s",10} {"stdy RU/s",9} {"p50 ms",8} {"p99 ms",8} {"steady99",8} {"thr %",6} {"cpu %",6} {"lim s",5}"),
        };
        lines.AddRange(results.OrderBy(r => r.Index).ThenBy(r => r.IsReRun).Select(r => string.Create(c,
            $"{(r.IsReRun ? $"{r.Index + 1} re" : $"{r.Index + 1}"),7}  {r.Series ?? "",-10} {r.Value,-14} {r.Status,-10} {r.AverageThroughput ?? r.Throughput,10:N1} {Figure(r.RequestUnitsPerSecond, "N0"),9} {Figure(r.SteadyThroughput, "N1"),10} {Figure(r.SteadyThroughput is null ? null : r.SteadyRequestUnitsPerSecond, "N0"),9} {Figure(r.P50Ms),8} {Figure(r.P99Ms),8} {Figure(r.SteadyP99Ms),8} {r.ThrottledPercent,6:F2} {Figure(r.MaxClientCpuPercent, "F0"),6} {r.ClientLimitedSeconds,5}{(r.ClientLimited ? "  client-limited" : "")}{(recommended.Contains((r.Index, r.IsReRun)) ? "  ◀ recommended" : "")}")));
        return string.Join(Environment.NewLine, lines);
    }

    private static string Figure(double? value, string format = "F2") => value?.ToString(format, CultureInfo.InvariantCulture) ?? "—";
}

/// <summary>The result file of a headless sweep: its options, each step's figures, each series' knee and each step's run
/// export (the document a dashboard imports).</summary>
public sealed record HeadlessSweepResult
{
    public SweepOptions Sweep { get; init; } = new();

    /// <summary>Every step that ran, re-runs included (<see cref="SweepStepResult.IsReRun"/>), in the order they ran.</summary>
    public IReadOnlyList<SweepStepResult> Steps { get; init; } = [];

    public IReadOnlyList<KneeResult> Knees { get; init; } = [];

    /// <summary>Each run's export, in the order they ran (a re-run named "… · re-run").</summary>
    public IReadOnlyList<RunExport> Runs { get; init; } = [];
}
