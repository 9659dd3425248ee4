using System.Globalization;
using System.Text.Json;
using BenchEngine.Metrics;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;
using BenchWeb.Configuration;
using BenchWeb.Provenance;
using BenchWeb.Transfer;
using Microsoft.Extensions.Options;

namespace BenchWeb.Headless;

/// <summary>
/// <c>BenchWeb run profile.json [--sweep sweep.json] [--summary out.json] [--baseline earlier.json] [--meta key=value]…</c>: runs a profile without the
/// dashboard (CI pipelines, benchmarks), prints one line per second, writes the result as a run export (the JSON a
/// dashboard exports and imports, see <see cref="RunExport"/>), and exits
/// 0 when it completed (its stop rule was met) and met its thresholds,
/// 1 when it failed (the target could not be opened, e.g. a bad secret; errors dominated; a crash),
/// 2 for invalid input (each bad field listed; nothing ran),
/// 3 when it missed a threshold,
/// 4 when the profile's auto-stop rule ended it early (Stopped: not a failure of the tool, the figures up to the stop
/// are valid, but the run did not reach its stop rule, so its thresholds are not judged),
/// 130 when cancelled (Ctrl+C or SIGINT, SIGQUIT, SIGTERM: <see cref="HeadlessCancellation"/>; the seconds measured so far are
/// printed and written as for any other end).
/// With <c>--sweep</c>, the profile is the base plan of a sweep (<see cref="BenchEngine.Sweeps.SweepOptions"/>): its steps run
/// one after another, the steps table and each series' knee are printed, the result file holds every step, and the exit
/// code is the one above for the recommended step (<see cref="HeadlessSweep"/>).
/// It never ends in an unhandled exception. Secrets come from environment variables named in the profile (e.g.
/// <c>COSMOS_KEY</c>).
/// The result file says where the run came from (<see cref="RunMetadata"/>): the commit, branch, build and pipeline run of the
/// CI job it runs in, read from that system's own variables (<see cref="PipelineEnvironment"/>), and the <c>--meta</c> pairs,
/// which win over what was read.
/// </summary>
public static class HeadlessCommand
{
    public const int ExitCompleted = 0;
    public const int ExitFailed = 1;
    public const int ExitInvalidInput = 2;
    public const int ExitThresholdsFailed = 3;
    public const int ExitStopped = 4;
    public const int ExitCancelled = 130;

    /// <summary>The largest profile or sweep read: a plan is a few kilobytes.</summary>
    public const long MaxProfileBytes = 1024 * 1024;

    /// <summary>The largest baseline (<c>--baseline</c>) read: a result file holds a line of figures a second, about a
    /// day of seconds at this size.</summary>
    public const long MaxBaselineBytes = 64L * 1024 * 1024;

    private const string Usage = "Usage: BenchWeb run <profile.json> [--sweep <sweep.json>] [--summary <result.json>] [--baseline <earlier-result.json>] [--meta <key=value>]...";

    /// <summary>The option that adds a metadata pair, and the field its problems are named by.</summary>
    private const string MetaOption = "--meta";

    /// <summary>How a baseline (<c>--baseline</c>) is read: as a run export, leniently, so that a result file written by an
    /// earlier version (the engine's own result, with the same <c>summary</c>) still serves.</summary>
    public static readonly JsonSerializerOptions BaselineJsonOptions = new(RunPlan.JsonOptions) { UnmappedMemberHandling = System.Text.Json.Serialization.JsonUnmappedMemberHandling.Skip };

    public static Task<int> RunAsync(IReadOnlyList<string> args, TextWriter output, TextWriter error, CancellationToken cancellationToken) =>
        RunAsync(args, output, error, configuration: null, createRunner: null, cancellationToken);

    /// <summary>The command with its settings and its engine given (tests); see the public overload.</summary>
    /// <param name="args">The command's arguments, after <c>run</c>.</param>
    /// <param name="output">Where the seconds and the summary go.</param>
    /// <param name="error">Where problems go.</param>
    /// <param name="configuration">The settings (<c>BenchWeb:ClientLimits</c>); null: the app's <c>appsettings.json</c> and the
    /// environment, as the dashboard reads them.</param>
    /// <param name="createRunner">The engine for the configured bounds; null: the engine as the dashboard runs it.</param>
    /// <param name="cancellationToken">Cancels the run (Ctrl+C, SIGTERM).</param>
    internal static Task<int> RunAsync(
        IReadOnlyList<string> args, TextWriter output, TextWriter error, IConfiguration? configuration, Func<ClientLimits, BenchmarkRunner>? createRunner, CancellationToken cancellationToken) =>
        RunAsync(args, output, error, configuration, createRunner, environment: null, cancellationToken);

    /// <summary>The command with its settings, its engine and its environment given (tests); see the public overload.</summary>
    /// <param name="args">The command's arguments, after <c>run</c>.</param>
    /// <param name="output">Where the seconds and the summary go.</param>
    /// <param name="error">Where problems go.</param>
    /// <param name="configuration">The settings; null: the app's <c>appsettings.json</c> and the environment.</param>
    /// <param name="createRunner">The engine for the configured bounds; null: the engine as the dashboard runs it.</param>
    /// <param name="environment">The environment variables the pipeline's metadata is read from (only the CI systems' own,
    /// see <see cref="PipelineEnvironment"/>); null: this process's.</param>
    /// <param name="cancellationToken">Cancels the run (Ctrl+C, SIGTERM).</param>
    internal static async Task<int> RunAsync(
        IReadOnlyList<string> args, TextWriter output, TextWriter error, IConfiguration? configuration, Func<ClientLimits, BenchmarkRunner>? createRunner,
        Func<string, string?>? environment, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(args);
        ArgumentNullException.ThrowIfNull(output);
        ArgumentNullException.ThrowIfNull(error);

        // Names, fields and paths from a profile are printed: never their control characters.
        output = new PrintableWriter(output);
        error = new PrintableWriter(error);
        try
        {
            return await RunCheckedAsync(args, output, error, configuration, createRunner ?? (static limits => new BenchmarkRunner { ClientLimits = limits }),
                environment ?? Environment.GetEnvironmentVariable, cancellationToken);
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            await error.WriteLineAsync("Cancelled.");
            return ExitCancelled;
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            // The last line of defence: whatever went wrong, the command reports it and exits with a code.
            await error.WriteLineAsync($"The run could not complete: {ex.GetType().Name}. This is a bug in BenchWeb; please report it.");
            return ExitFailed;
        }
    }

    private static async Task<int> RunCheckedAsync(
        IReadOnlyList<string> args, TextWriter output, TextWriter error, IConfiguration? configuration, Func<ClientLimits, BenchmarkRunner> createRunner,
        Func<string, string?> environment, CancellationToken cancellationToken)
    {
        if (args.Count == 0 || args[0] is "-h" or "--help")
        {
            await output.WriteLineAsync(Usage);
            await output.WriteLineAsync("Exit codes: 0 completed (thresholds met), 1 failed, 2 invalid input, 3 a threshold missed, 4 stopped by an auto-stop rule, 130 cancelled (Ctrl+C, SIGINT, SIGTERM; the seconds so far are kept).");
            await output.WriteLineAsync($"{MetaOption} key=value (repeatable) says where the run came from in the result file; in a GitHub Actions, Azure Pipelines or GitLab job, "
                + "its commit, branch, build and pipeline link are read from the job's variables, and a --meta pair wins over them.");
            return args.Count == 0 ? ExitInvalidInput : ExitCompleted;
        }

        var profilePath = args[0];
        var summaryPath = Path.ChangeExtension(profilePath, ".summary.json");
        string? baselinePath = null;
        string? sweepPath = null;
        var explicitPairs = new List<KeyValuePair<string, string>>();
        for (var i = 1; i < args.Count; i++)
        {
            if (args[i] == MetaOption)
            {
                if (i + 1 >= args.Count)
                {
                    await error.WriteLineAsync($"{MetaOption} needs a key=value after it, e.g. {MetaOption} commit=1a2b3c4; nothing was run.");
                    return ExitInvalidInput;
                }

                if (RunMetadata.TryParsePair(args[++i], out var pair) is { } problem)
                {
                    await error.WriteLineAsync($"{MetaOption} '{args[i]}': {problem} Nothing was run.");
                    return ExitInvalidInput;
                }

                explicitPairs.Add(pair);
                continue;
            }

            if (args[i] == "--summary" && i + 1 < args.Count)
            {
                summaryPath = args[++i];
            }
            else if (args[i] == "--sweep" && i + 1 < args.Count)
            {
                sweepPath = args[++i];
            }
            else if (args[i] == "--baseline" && i + 1 < args.Count)
            {
                baselinePath = args[++i];
            }
            else
            {
                await error.WriteLineAsync($"Unknown option '{args[i]}'. {Usage}");
                return ExitInvalidInput;
            }
        }

        // The pairs given win over the pipeline's; each is checked as given, then the whole set for its size.
        var given = new RunMetadata(explicitPairs);
        var pipeline = PipelineEnvironment.Detect(environment);
        var metadata = pipeline.Metadata.With(given);
        var problems = given.Validate(MetaOption);
        var readNote = "";
        if (problems.Count == 0)
        {
            // Each pair is fine as given: only the two sets together can be too many.
            problems = metadata.Validate(MetaOption);
            readNote = pipeline.Metadata.IsEmpty ? "" : $" ({pipeline.Metadata.Count} of them read from the pipeline's variables)";
        }

        if (problems.Count > 0)
        {
            await error.WriteLineAsync("The run's metadata is invalid; nothing was run:");
            foreach (var fieldError in problems)
            {
                await error.WriteLineAsync($"  {fieldError.Field}: {fieldError.Message}{(fieldError.Field == MetaOption ? readNote : "")}");
            }

            return ExitInvalidInput;
        }

        if (Path.GetDirectoryName(Path.GetFullPath(summaryPath)) is { } summaryFolder && !Directory.Exists(summaryFolder))
        {
            await error.WriteLineAsync($"The folder of the result file '{summaryPath}' does not exist; nothing was run.");
            return ExitInvalidInput;
        }

        // Writing to a named pipe waits for a reader, and a device or a folder takes no result: only a file is (over)written.
        if (RegularFile.Inspect(summaryPath) is not (FileKind.Regular or FileKind.Missing))
        {
            await error.WriteLineAsync($"The result file '{summaryPath}' is not a regular file (a folder, a named pipe or a device); nothing was run.");
            return ExitInvalidInput;
        }

        RunPlan plan;
        CheckedPlan checkedPlan;
        try
        {
            plan = RunPlan.FromJson(await ReadProfileAsync(profilePath, cancellationToken));

            // The person running the command is on this machine: file problems are described, never quoted.
            checkedPlan = plan.EnsureValid(ValidationAudience.Local);
            if (plan.Load.Agents != 1)
            {
                // Running the whole load here would measure one client as if it were several.
                throw new RunPlanValidationException([new FieldError(PlanSettingsCatalog.Agents.Path,
                    "A headless run is one client: set 1, or launch the profile from a dashboard in shared mode to spread it over agents.")]);
            }

            // The whole file, as the dashboard checks an upload: UTF-8, every row with the header's fields, at least one row.
            if (plan.Workload is { Shape: DocumentShape.CsvFile, CsvPath: { } csvPath }
                && (await CsvFileCheck.CheckAsync(csvPath, cancellationToken)).Error is { } csvProblem)
            {
                throw new RunPlanValidationException([new FieldError(PlanSettingsCatalog.CsvPath.Path, csvProblem)]);
            }
        }
        catch (RunPlanValidationException ex)
        {
            await PrintInvalidAsync(error, profilePath, ex);
            return ExitInvalidInput;
        }
        catch (FileNotFoundException)
        {
            await error.WriteLineAsync($"Profile '{profilePath}' does not exist.");
            return ExitInvalidInput;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or InvalidDataException)
        {
            await error.WriteLineAsync($"Profile '{profilePath}' cannot be read: {ex.Message}");
            return ExitInvalidInput;
        }

        double? baselineThroughput = null;
        if (baselinePath is not null)
        {
            try
            {
                var baseline = JsonSerializer.Deserialize<RunExport>(await RegularFile.ReadTextAsync(baselinePath, MaxBaselineBytes, cancellationToken), BaselineJsonOptions);
                baselineThroughput = baseline?.Summary?.AverageThroughput;
            }
            catch (Exception ex) when (ex is IOException or JsonException or UnauthorizedAccessException or InvalidDataException)
            {
                await error.WriteLineAsync($"Baseline '{baselinePath}' cannot be read as a result file: {(ex is JsonException json ? JsonErrorText.Describe(json) : ex.Message)}");
                return ExitInvalidInput;
            }
        }

        ClientLimits limits;
        try
        {
            limits = ClientLimitsSettings.Read(configuration ?? AppConfiguration());
        }
        catch (Exception ex) when (ex is OptionsValidationException or InvalidOperationException or InvalidDataException or FormatException)
        {
            // The same bounds and checks as the dashboard's: a run judged by a bound the dashboard would refuse is not run.
            await error.WriteLineAsync($"The setting {ClientLimitsSettings.SectionName} is invalid: {ex.Message}");
            return ExitInvalidInput;
        }

        // The log of the pipeline says what the result file will: where the run came from, and what was read but not kept.
        if (!metadata.IsEmpty)
        {
            await output.WriteLineAsync($"Metadata: {string.Join(" · ", metadata.Pairs.Select(p => $"{p.Key}={p.Value}"))}");
        }

        foreach (var skipped in pipeline.Skipped)
        {
            await error.WriteLineAsync($"Not kept from the pipeline's variables: {skipped}");
        }

        if (sweepPath is not null)
        {
            return await HeadlessSweep.RunAsync(createRunner(limits), plan, sweepPath, summaryPath, baselineThroughput, metadata, output, error, cancellationToken);
        }

        var runner = createRunner(limits);
        var observer = new ConsoleObserver(output);

        // Checked above, once: a workload file that changes before the start fails the run as the engine opens it.
        var result = await runner.RunAsync(checkedPlan, TargetContext.FromEnvironment(), observer, cancellationToken);

        await PrintSummaryAsync(output, plan, result, limits);

        // Thresholds are judged for a completed run only: a stopped one did not reach its stop rule.
        var verdict = result.Status == RunStatus.Completed && plan.Thresholds is { IsEmpty: false } thresholds
            ? ThresholdEvaluator.Evaluate(result.Status, result.Summary, thresholds, baselineThroughput)
            : null;
        var export = RunTransfer.FromHeadlessRun(plan, result, observer.ProvisionedRequestUnits, verdict, runner.Time.GetUtcNow(), metadata);
        var written = true;
        try
        {
            await File.WriteAllTextAsync(summaryPath, RunTransfer.ToJson(export), CancellationToken.None);
            await output.WriteLineAsync($"Result written to {summaryPath} (a run export: import it into a dashboard at /runs/import)");
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            await error.WriteLineAsync($"The result could not be written to '{summaryPath}': {ex.GetType().Name}.");
            written = false;
        }

        if (result.FailureReason is { } reason)
        {
            await error.WriteLineAsync($"Run failed: {reason}");
        }

        if (!written)
        {
            return ExitFailed;
        }

        if (verdict is not null)
        {
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
            RunStatus.Stopped => ExitStopped,
            RunStatus.Cancelled => ExitCancelled,
            _ => ExitFailed,
        };
    }

    /// <summary>The settings the dashboard would read from this installation: its <c>appsettings.json</c> and the environment
    /// (<c>BenchWeb__ClientLimits__HostCpuPercent=90</c>).</summary>
    private static IConfiguration AppConfiguration() => new ConfigurationBuilder()
        .AddJsonFile(Path.Combine(AppContext.BaseDirectory, "appsettings.json"), optional: true)
        .AddEnvironmentVariables()
        .Build();

    /// <summary>A profile's or a sweep's text: a regular file of at most <see cref="MaxProfileBytes"/> (a named pipe or a
    /// device is refused before it is opened, see <see cref="RegularFile.ReadTextAsync"/>).</summary>
    internal static Task<string> ReadProfileAsync(string path, CancellationToken cancellationToken) =>
        RegularFile.ReadTextAsync(path, MaxProfileBytes, cancellationToken);

    internal static async Task PrintInvalidAsync(TextWriter error, string profilePath, RunPlanValidationException ex)
    {
        await error.WriteLineAsync($"Profile '{profilePath}' is invalid:");
        foreach (var fieldError in ex.Errors)
        {
            await error.WriteLineAsync($"  {fieldError.Field}: {fieldError.Message}");
        }
    }

    private static async Task PrintSummaryAsync(TextWriter output, RunPlan plan, RunResult result, ClientLimits limits)
    {
        var s = result.Summary;
        var c = CultureInfo.InvariantCulture;
        var l = s.Latency;
        await output.WriteLineAsync();
        await output.WriteLineAsync(string.Create(c, $"{plan.Name}: {result.Status} ({result.StopReason}) against {result.TargetDescription}"));
        await output.WriteLineAsync(string.Create(c, $"  elapsed {ElapsedText.Format(s.Elapsed)} · ok {s.TotalOk:N0} · throttled {s.TotalThrottled:N0} ({s.ThrottledFraction:P2}) · errors {s.TotalErrors:N0} · given up {s.TotalGivenUp:N0} · abandoned {result.AbandonedRequests:N0}"));
        if (s.OfferedRequestsPerSecond is { } offered)
        {
            await output.WriteLineAsync(string.Create(c, $"  requests offered {offered:N1}/s · sent {Figure(s.AchievedRequestsPerSecond, "N1")}/s · due but not sent {s.TotalUnsent:N0} ({s.DroppedFraction:P2})"));
        }

        await output.WriteLineAsync(string.Create(c, $"  throughput avg {s.AverageThroughput:N1}/s · mean of seconds {s.MeanPerSecondThroughput:N1}/s · P99 of seconds {s.P99PerSecondThroughput:N0}/s · top {RunSummary.TopSecondsPercent:N0} % of seconds {Figure(s.Top10PercentMeanThroughput, "N1")}/s · {SteadyText(s.SteadyState)}"));
        await output.WriteLineAsync(string.Create(c, $"  latency{(s.LatencyIsPerBatch ? " per batch" : "")} mean {Figure(l.MeanMs)} · P50 {Figure(l.P50Ms)} · P75 {Figure(l.P75Ms)} · P90 {Figure(l.P90Ms)} · P95 {Figure(l.P95Ms)} · P98 {Figure(l.P98Ms)} · P99 {Figure(l.P99Ms)} · P99.9 {Figure(l.P999Ms)} · max {Figure(l.MaxMs)} ms (successful operations; failed and throttled attempts excluded)"));
        var requestUnits = s.RequestUnitsReported
            ? string.Create(c, $"RU/s {Figure(s.RequestUnitsPerSecond, "N0")} · RU/insert {Figure(s.RequestUnitsPerInsert)}")
            : "RU n/a (the target has no request units)";
        var cost = s.EstimatedCostPerMonth is { } m ? string.Create(c, $" · provisioned cost ${m:N0}/month{(s.ProvisionedAutoscale ? " (autoscale, 1.5 × at the peak)" : "")}")
            : s.RequestUnitsReported ? " · provisioned cost unknown" : "";
        await output.WriteLineAsync(string.Create(c, $"  {requestUnits}{cost}{(result.TargetIsModel ? " · figures from a model, not a service" : "")}"));
        // Every request in exactly one bucket: the identity is printed as it is, and said when it does not hold.
        var accounted = s.TotalOkRequests + s.TotalGivenUpRequests + s.TotalErrors + s.TotalAbandoned + s.TotalDropped + s.TotalNotStarted;
        await output.WriteLineAsync(string.Create(c,
            $"  requests offered {s.TotalOffered:N0} = ok {s.TotalOkRequests:N0} + given up {s.TotalGivenUpRequests:N0} + errors {s.TotalErrors:N0} + abandoned {s.TotalAbandoned:N0} + dropped {s.TotalDropped:N0} + not started {s.TotalNotStarted:N0}{(s.AccountsBalance ? "" : $" (does not balance: the buckets hold {accounted:N0})")} · sent late {s.TotalSentLate:N0}"));
        if (s.ClientBound)
        {
            await output.WriteLineAsync(string.Create(c,
                $"  client-bound: the client, not the service, was the limit in {s.ClientLimitedSeconds:N0} of {result.Seconds.Count:N0} seconds; the per-second figures leave out {s.PerSecondLeftOut:N0}, the steady window {s.SteadyState.SecondsLeftOut:N0}"));
            foreach (var span in s.ClientLimitedSpans)
            {
                await output.WriteLineAsync($"    {span.Describe()}");
            }
        }
        else if (s.WorstClientSecond is { } worst)
        {
            await output.WriteLineAsync(string.Create(c,
                $"  client healthy (bounds: {limits.DescribeBounds()}); its worst second, {worst.Index}: this process {worst.ClientCpuPercent:F0} %, host CPU {Figure(worst.Health.HostCpuPercent, "F0")} %, scheduling lag p99 {worst.Health.SchedulingLagP99Ms:F1} ms, GC pauses {worst.Health.GcPauseMs:F0} ms"));
        }

        // The slowest requests: their count here, their diagnostics in the result file (slowRequests).
        if (result.SlowRequests.Count > 0)
        {
            var slowest = result.SlowRequests.MaxBy(r => r.LatencyMs)!;
            await output.WriteLineAsync(string.Create(c,
                $"  slowest requests kept with their diagnostics: {result.SlowRequests.Count:N0}{(result.SlowRequestsNotKept > 0 ? $" ({result.SlowRequestsNotKept:N0} more not kept: the run's bounds were full)" : "")}; the slowest, in second {slowest.Second}: {slowest.Summary}"));
        }

        if (s.Stages.Count > 0)
        {
            // One line a stage, its counts adding up to the run's; the latencies are over all of the stage's operations.
            await output.WriteLineAsync(string.Create(c, $"  {"stage",-5} {"seconds",-9} {"ok",12} {"ok/s",10} {"P50 ms",8} {"P99 ms",8} {"throttled",9} {"RU/s",10} {"CPU mean/max",12}"));
            foreach (var stage in s.Stages)
            {
                var ru = stage.RequestUnitsPerSecond is { } perSecond ? perSecond.ToString("N0", c) : "n/a";
                await output.WriteLineAsync(string.Create(c,
                    $"  {stage.Index + 1,-5} {$"{stage.FirstSecond}–{stage.LastSecond}",-9} {stage.Ok,12:N0} {stage.Throughput,10:N1} {Figure(stage.LatencyP50Ms),8} {Figure(stage.LatencyP99Ms),8} {stage.ThrottledFraction,9:P2} {ru,10} {$"{stage.MeanClientCpuPercent:F0}/{stage.MaxClientCpuPercent:F0} %",12}"));
            }
        }
    }

    /// <summary>"steady 1,234.5/s (s 3–57)", or "steady none" for a run without a full second (one that never started).</summary>
    private static string SteadyText(SteadyStateWindow steady) => steady.Seconds == 0
        ? "steady none"
        : string.Create(CultureInfo.InvariantCulture, $"steady {steady.MeanThroughput:N1}/s (s {steady.FirstSecond}–{steady.LastSecond})");

    private static string Figure(double? value, string format = "F2") => value?.ToString(format, CultureInfo.InvariantCulture) ?? "—";

    private sealed class ConsoleObserver(TextWriter output) : IRunObserver
    {
        private bool _requestUnitsReported = true;

        /// <summary>The target's provisioned throughput, as the run's start reported it (the dashboard stores the same).</summary>
        public double? ProvisionedRequestUnits { get; private set; }

        public async ValueTask OnStartedAsync(RunStart start, CancellationToken cancellationToken)
        {
            _requestUnitsReported = start.RequestUnitsReported;
            ProvisionedRequestUnits = start.ProvisionedRequestUnits;
            await output.WriteLineAsync($"Running against {start.TargetDescription} on {start.Environment.MachineName} ({start.Environment.ProcessorCount} cores)");
        }

        public async ValueTask OnSecondAsync(SecondSnapshot s, CancellationToken cancellationToken) =>
            await output.WriteLineAsync(SecondLine(s, _requestUnitsReported));
    }

    /// <summary>One second as a line: rates for a full second; a last, partial second gives its counts, never a rate
    /// scaled up from a few milliseconds.</summary>
    internal static string SecondLine(SecondSnapshot s, bool requestUnitsReported)
    {
        var c = CultureInfo.InvariantCulture;
        var requestUnits = !requestUnitsReported ? "RU n/a"
            : s.IsFull ? string.Create(c, $"RU/s {s.RequestUnitsPerSecond,9:N0}") : string.Create(c, $"RU {s.RequestUnits,11:N0}");
        var ok = s.IsFull ? string.Create(c, $"ok {s.OkPerSecond,9:N0}/s") : string.Create(c, $"ok {s.Ok,9:N0} in {s.Duration.TotalSeconds:F3} s (partial second)");
        return string.Create(c,
            $"[{s.Elapsed.TotalSeconds,6:F1}s] {ok}  throttled {s.Throttled,6:N0}  errors {s.Errors,5:N0}{(s.Dropped + s.NotStarted > 0 ? $"  not sent {s.Dropped + s.NotStarted,6:N0}" : "")}{(s.GivenUp > 0 ? $"  given up {s.GivenUp,5:N0}" : "")}{(s.Abandoned > 0 ? $"  abandoned {s.Abandoned,5:N0}" : "")}  {requestUnits}  p50 {Figure(s.LatencyP50Ms),7} ms  p99 {Figure(s.LatencyP99Ms),8} ms  in flight {s.InFlight,5}  {HealthText(s)}");
    }

    /// <summary>The client's side of a second: this process's CPU, the host's, the scheduling lag, and a marker when the
    /// second was the client's, not the service's (the bounds it crossed; the summary says why in words).</summary>
    private static string HealthText(SecondSnapshot s)
    {
        var c = CultureInfo.InvariantCulture;
        var health = s.Health;
        var text = string.Create(c, $"cpu {s.ClientCpuPercent,3:F0}%  host {Figure(health?.HostCpuPercent, "F0"),3}%  lag p99 {Figure(health?.SchedulingLagP99Ms, "F1"),6} ms");
        return !s.IsClientLimited ? text : $"{text}  [client-limited: {health?.Limits ?? ClientLimitKinds.ProcessCpu}]";
    }
}
