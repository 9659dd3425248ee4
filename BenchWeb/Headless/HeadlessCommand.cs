using System.Globalization;
using System.Text.Json;
using BenchEngine.Metrics;
using BenchEngine.Running;
using BenchEngine.Targets;

namespace BenchWeb.Headless;

/// <summary>
/// <c>BenchWeb run profile.json [--summary out.json] [--baseline earlier.json]</c>: runs a profile without the
/// dashboard (CI pipelines, benchmarks), prints one line per second, writes the result as JSON, and exits 0 when it
/// completed and met its thresholds, 1 when it failed, 2 for invalid input, 3 when it missed a threshold, 130 when
/// cancelled.
/// Secrets come from environment variables named in the profile (e.g. <c>COSMOS_KEY</c>).
/// </summary>
public static class HeadlessCommand
{
    public const int ExitCompleted = 0;
    public const int ExitFailed = 1;
    public const int ExitInvalidInput = 2;
    public const int ExitThresholdsFailed = 3;
    public const int ExitCancelled = 130;

    public static readonly JsonSerializerOptions ResultJsonOptions = new(RunPlan.JsonOptions) { UnmappedMemberHandling = System.Text.Json.Serialization.JsonUnmappedMemberHandling.Skip };

    public static async Task<int> RunAsync(IReadOnlyList<string> args, TextWriter output, TextWriter error, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(args);
        ArgumentNullException.ThrowIfNull(output);
        ArgumentNullException.ThrowIfNull(error);
        if (args.Count == 0 || args[0] is "-h" or "--help")
        {
            await output.WriteLineAsync("Usage: BenchWeb run <profile.json> [--summary <result.json>] [--baseline <earlier-result.json>]");
            return args.Count == 0 ? ExitInvalidInput : ExitCompleted;
        }

        var profilePath = args[0];
        var summaryPath = Path.ChangeExtension(profilePath, ".summary.json");
        string? baselinePath = null;
        for (var i = 1; i < args.Count; i++)
        {
            if (args[i] == "--summary" && i + 1 < args.Count)
            {
                summaryPath = args[++i];
            }
            else if (args[i] == "--baseline" && i + 1 < args.Count)
            {
                baselinePath = args[++i];
            }
            else
            {
                await error.WriteLineAsync($"Unknown option '{args[i]}'. Usage: BenchWeb run <profile.json> [--summary <result.json>] [--baseline <earlier-result.json>]");
                return ExitInvalidInput;
            }
        }

        if (!File.Exists(profilePath))
        {
            await error.WriteLineAsync($"Profile '{profilePath}' does not exist.");
            return ExitInvalidInput;
        }

        RunPlan plan;
        try
        {
            plan = RunPlan.FromJson(await File.ReadAllTextAsync(profilePath, cancellationToken));
            plan.EnsureValid();
        }
        catch (RunPlanValidationException ex)
        {
            await error.WriteLineAsync($"Profile '{profilePath}' is invalid:");
            foreach (var fieldError in ex.Errors)
            {
                await error.WriteLineAsync($"  {fieldError.Field}: {fieldError.Message}");
            }

            return ExitInvalidInput;
        }

        double? baselineThroughput = null;
        if (baselinePath is not null)
        {
            try
            {
                var baseline = JsonSerializer.Deserialize<RunResult>(await File.ReadAllTextAsync(baselinePath, cancellationToken), ResultJsonOptions);
                baselineThroughput = baseline?.Summary.AverageThroughput;
            }
            catch (Exception ex) when (ex is IOException or JsonException or UnauthorizedAccessException)
            {
                await error.WriteLineAsync($"Baseline '{baselinePath}' cannot be read as a result file: {ex.Message}");
                return ExitInvalidInput;
            }
        }

        var runner = new BenchmarkRunner();
        var result = await runner.RunAsync(plan, TargetContext.FromEnvironment(), new ConsoleObserver(output), cancellationToken);
        await PrintSummaryAsync(output, plan, result);
        await File.WriteAllTextAsync(summaryPath, JsonSerializer.Serialize(result, ResultJsonOptions), CancellationToken.None);
        await output.WriteLineAsync($"Result written to {summaryPath}");
        if (result.FailureReason is { } reason)
        {
            await error.WriteLineAsync($"Run failed: {reason}");
        }

        if (result.Status == RunStatus.Completed && plan.Thresholds is { IsEmpty: false } thresholds)
        {
            var verdict = ThresholdEvaluator.Evaluate(result.Status, result.Summary, thresholds, baselineThroughput);
            foreach (var check in verdict.Checks)
            {
                await output.WriteLineAsync($"  {(check.Passed ? "pass" : "FAIL")}  {check.Message}");
            }

            await output.WriteLineAsync($"Thresholds: {verdict.Describe()}");
            if (!verdict.Passed)
            {
                return ExitThresholdsFailed;
            }
        }

        return result.Status switch
        {
            RunStatus.Completed => ExitCompleted,
            RunStatus.Cancelled => ExitCancelled,
            _ => ExitFailed,
        };
    }

    private static async Task PrintSummaryAsync(TextWriter output, RunPlan plan, RunResult result)
    {
        var s = result.Summary;
        var c = CultureInfo.InvariantCulture;
        await output.WriteLineAsync();
        await output.WriteLineAsync(string.Create(c, $"{plan.Name}: {result.Status} ({result.StopReason}) against {result.TargetDescription}"));
        await output.WriteLineAsync(string.Create(c, $"  elapsed {s.Elapsed.TotalSeconds:F1} s · ok {s.TotalOk:N0} · throttled {s.TotalThrottled:N0} ({s.ThrottledFraction:P2}) · errors {s.TotalErrors:N0}"));
        await output.WriteLineAsync(string.Create(c, $"  throughput avg {s.AverageThroughput:N1}/s · mean of seconds {s.MeanPerSecondThroughput:N1}/s · P99 of seconds {s.P99PerSecondThroughput:N0}/s · steady {s.SteadyState.MeanThroughput:N1}/s (s {s.SteadyState.FirstSecond}–{s.SteadyState.LastSecond})"));
        await output.WriteLineAsync(string.Create(c, $"  latency{(s.LatencyIsPerBatch ? " per batch" : "")} mean {s.Latency.MeanMs:F2} · P50 {s.Latency.P50Ms:F2} · P95 {s.Latency.P95Ms:F2} · P96 {s.Latency.P96Ms:F2} · P99 {s.Latency.P99Ms:F2} · P99.9 {s.Latency.P999Ms:F2} · max {s.Latency.MaxMs:F2} ms"));
        await output.WriteLineAsync(string.Create(c, $"  RU/s {s.RequestUnitsPerSecond:N0} · RU/insert {s.RequestUnitsPerInsert:F2}{(s.EstimatedCostPerMonth is { } m ? $" · provisioned cost ${m:N0}/month" : "")}{(result.TargetIsModel ? " · figures from a model, not a service" : "")}"));
        if (s.ClientBound)
        {
            await output.WriteLineAsync(string.Create(c, $"  client-bound: client CPU reached {s.MaxClientCpuPercent:F0} % — the client, not the service, may be the limit"));
        }
    }

    private sealed class ConsoleObserver(TextWriter output) : IRunObserver
    {
        public async ValueTask OnStartedAsync(RunStart start, CancellationToken cancellationToken) =>
            await output.WriteLineAsync($"Running against {start.TargetDescription} on {start.Environment.MachineName} ({start.Environment.ProcessorCount} cores)");

        public async ValueTask OnSecondAsync(SecondSnapshot s, CancellationToken cancellationToken) =>
            await output.WriteLineAsync(string.Create(CultureInfo.InvariantCulture,
                $"[{s.Elapsed.TotalSeconds,6:F1}s] ok {s.OkPerSecond,9:N0}/s  throttled {s.Throttled,6:N0}  errors {s.Errors,5:N0}  RU/s {s.RequestUnitsPerSecond,9:N0}  p50 {s.LatencyP50Ms,7:F2} ms  p99 {s.LatencyP99Ms,8:F2} ms  in flight {s.InFlight,5}  cpu {s.ClientCpuPercent,3:F0}%"));
    }
}
