using System.Globalization;
using System.Text.Json;
using System.Text.Json.Nodes;
using BenchEngine.Diagnostics;
using BenchEngine.Metrics;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Data;
using BenchWeb.Execution;
using BenchWeb.Guard;
using BenchWeb.Guard.Audit;
using BenchWeb.Guard.Security;
using BenchWeb.History;
using BenchWeb.Live;
using BenchWeb.Profiles;
using BenchWeb.Provenance;
using BenchWeb.Uploads;
using CsvHelper;
using Microsoft.EntityFrameworkCore;

namespace BenchWeb.Transfer;

/// <summary>Moves runs between installations: exports a run as a JSON document (and its seconds as CSV), and
/// imports such a document after checking that it is whole and consistent. Stored secrets never travel: plans
/// hold only the names of secrets.</summary>
public sealed class RunTransfer(IDbContextFactory<BenchDbContext> databases, CsvUploadStore uploads, AuditLog audit, TimeProvider time)
{
    /// <summary>The CSV columns, one row per second.</summary>
    public static readonly IReadOnlyList<string> CsvColumns =
    [
        "second", "elapsed_s", "duration_s", "ok", "ok_per_s", "throttled", "throttled_per_s", "errors", "ru", "ru_per_s",
        "bytes", "p50_ms", "p95_ms", "p99_ms", "max_ms", "in_flight", "cpu_percent", "issued", "dropped", "given_up", "stage",
        "sent_late", "not_started", "abandoned", "given_up_requests", "client_limited", "client_limited_reason", "client_limits",
        "host_cpu_percent", "sched_lag_p50_ms", "sched_lag_p99_ms", "sched_lag_max_ms", "clock_lag_ms", "thread_pool_queue_max",
        "thread_pool_threads", "thread_injections", "gc_pause_ms", "available_memory_mb",
    ];

    /// <summary>What the latency columns and figures cover, written beside them in every export.</summary>
    public const string LatencyCoverage = "Latency percentiles are over successful operations; failed and throttled attempts are excluded. An empty latency cell: no operation succeeded in that second.";

    private static readonly RunStatus[] TerminalStatuses = [RunStatus.Completed, RunStatus.Stopped, RunStatus.Cancelled, RunStatus.Failed, RunStatus.Interrupted];

    /// <summary>A saved run as an export document (<see cref="RunReader.ExportAsync"/> reads what it needs).</summary>
    /// <param name="run">The run's row.</param>
    /// <param name="seconds">Its seconds, in order.</param>
    /// <param name="slowRequests">Its slow requests, in the order they are shown.</param>
    /// <param name="exportedAt">The document's time of writing.</param>
    public static RunExport ExportOf(RunEntity run, IReadOnlyList<RunSecondEntity> seconds, IReadOnlyList<SlowRequest> slowRequests, DateTimeOffset exportedAt)
    {
        ArgumentNullException.ThrowIfNull(run);
        ArgumentNullException.ThrowIfNull(seconds);
        ArgumentNullException.ThrowIfNull(slowRequests);
        return new RunExport
        {
            ExportedAt = exportedAt,
            ExportedFrom = Environment.MachineName,
            RunId = run.Id,
            ProfileName = run.ProfileName,
            PresetId = run.PresetId,
            Status = run.Status,
            TargetKind = run.TargetKind,
            QueuedAt = run.QueuedAt,
            StartedAt = run.StartedAt,
            EndedAt = run.EndedAt,
            TargetDescription = run.TargetDescription,
            TargetIsModel = run.TargetIsModel,
            ProvisionedRequestUnits = run.ProvisionedRequestUnits,
            StopReason = run.StopReason,
            // Texts stored before endpoints with a user name or password were refused may quote one.
            FailureReason = EndpointPolicy.WithoutUserInfoInText(run.FailureReason),
            FirstError = EndpointPolicy.WithoutUserInfoInText(run.FirstError),
            AbandonedRequests = run.AbandonedRequests,
            Notes = run.Notes,
            Tags = RunTags.Parse(run.Tags),
            Metadata = RunMetadata.FromStored(run.MetadataJson),
            SteadyStateFirst = run.SteadyStateFirst,
            SteadyStateLast = run.SteadyStateLast,
            ImportedFrom = run.ImportedFrom,
            Plan = RunPlan.FromJson(ShownPlan.Json(run.PlanJson)),
            Environment = Read<ClientEnvironment>(run.EnvironmentJson),
            Summary = Read<RunSummary>(run.SummaryJson),
            Verdict = Read<Verdict>(run.VerdictJson),
            LatencyCoverage = LatencyCoverage,
            Seconds = seconds.Select(ToExport).ToList(),
            SlowRequests = slowRequests,
        };
    }

    /// <summary>A run of the headless command (<c>BenchWeb run</c>) as an export document: the same document a dashboard
    /// exports, without a run number (a dashboard that imports it gives it one).</summary>
    /// <param name="plan">The plan as read from the profile.</param>
    /// <param name="result">What the engine returned.</param>
    /// <param name="provisionedRequestUnits">The target's provisioned throughput, as the run's start reported it.</param>
    /// <param name="verdict">The thresholds' verdict, when they were judged.</param>
    /// <param name="endedAt">When the run ended; also the document's time of writing.</param>
    /// <param name="metadata">Where the run came from: the pipeline's variables and the command's <c>--meta</c> pairs.</param>
    public static RunExport FromHeadlessRun(RunPlan plan, RunResult result, double? provisionedRequestUnits, Verdict? verdict, DateTimeOffset endedAt, RunMetadata metadata)
    {
        ArgumentNullException.ThrowIfNull(plan);
        ArgumentNullException.ThrowIfNull(result);
        ArgumentNullException.ThrowIfNull(metadata);
        return new RunExport
        {
            ExportedAt = endedAt,
            ExportedFrom = Environment.MachineName,
            RunId = null,
            ProfileName = plan.Name,
            Status = result.Status,
            TargetKind = plan.Target.Kind,
            QueuedAt = result.StartedAt,
            StartedAt = result.StartedAt,
            EndedAt = endedAt,
            TargetDescription = result.TargetDescription,
            TargetIsModel = result.TargetIsModel,
            ProvisionedRequestUnits = provisionedRequestUnits,
            StopReason = result.StopReason,
            FailureReason = result.FailureReason,
            FirstError = result.FirstError,
            AbandonedRequests = result.AbandonedRequests,
            Metadata = metadata,
            Plan = plan,
            Environment = result.Environment,
            Summary = result.Summary,
            Verdict = verdict,
            LatencyCoverage = LatencyCoverage,
            // Each second as the dashboard stores it, closed when its time was up.
            Seconds = result.Seconds.Select(s => RunExportSecond.From(s, result.StartedAt + s.Elapsed)).ToList(),
            SlowRequests = result.SlowRequests,
        };
    }

    /// <summary>The document as JSON, in the plan's own conventions (camelCase, enums as names).</summary>
    public static string ToJson(RunExport export) => JsonSerializer.Serialize(export, RunPlan.JsonOptions);

    /// <summary>The seconds as CSV, one row per second, numbers in the invariant culture.</summary>
    public static async Task WriteCsvAsync(RunExport export, TextWriter writer, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(export);
        await using var csv = new CsvWriter(writer, CsvFormat.Configuration, leaveOpen: true);
        foreach (var column in CsvColumns)
        {
            csv.WriteField(column);
        }

        await csv.NextRecordAsync();
        // A target without request units leaves their cells empty ("n/a"), never 0; a run stored before its summary said
        // so is told by its kind.
        var requestUnitsReported = export.Summary is not { RequestUnitsReported: false } && export.TargetKind.ReportsRequestUnits();
        var stages = export.Summary?.Stages ?? [];
        foreach (var second in export.Seconds)
        {
            cancellationToken.ThrowIfCancellationRequested();
            var duration = second.DurationSeconds;
            csv.WriteField(second.Index);
            csv.WriteField(second.ElapsedSeconds);
            csv.WriteField(duration);
            csv.WriteField(second.Ok);
            csv.WriteField(PerSecond(second.Ok, duration));
            csv.WriteField(second.Throttled);
            csv.WriteField(PerSecond(second.Throttled, duration));
            csv.WriteField(second.Errors);
            csv.WriteField(requestUnitsReported ? second.RequestUnits : (double?)null);
            csv.WriteField(requestUnitsReported ? PerSecond(second.RequestUnits, duration) : null);
            csv.WriteField(second.Bytes);
            csv.WriteField(second.LatencyP50Ms);
            csv.WriteField(second.LatencyP95Ms);
            csv.WriteField(second.LatencyP99Ms);
            csv.WriteField(second.LatencyMaxMs);
            csv.WriteField(second.InFlight);
            csv.WriteField(second.ClientCpuPercent);
            csv.WriteField(second.Issued);
            csv.WriteField(second.Dropped);
            csv.WriteField(second.GivenUp);

            // A run in stages: the stage (from 1) the second belongs to; empty without stages.
            csv.WriteField(stages.FirstOrDefault(s => second.Index >= s.FirstSecond && second.Index <= s.LastSecond) is { } stage ? stage.Index + 1 : (int?)null);
            csv.WriteField(second.SentLate);
            csv.WriteField(second.NotStarted);
            csv.WriteField(second.Abandoned);
            csv.WriteField(second.GivenUpRequests);
            csv.WriteField(second.ClientLimited);
            csv.WriteField(second.ClientLimitedReason);

            // A second measured without client health leaves its cells empty: not measured, never 0.
            var health = second.Health;
            csv.WriteField(health?.Limits.ToString());
            csv.WriteField(health?.HostCpuPercent);
            csv.WriteField(health?.SchedulingLagP50Ms);
            csv.WriteField(health?.SchedulingLagP99Ms);
            csv.WriteField(health?.SchedulingLagMaxMs);
            csv.WriteField(health?.ClockLagMs);
            csv.WriteField(health?.ThreadPoolQueueMax);
            csv.WriteField(health?.ThreadPoolThreads);
            csv.WriteField(health?.ThreadInjections);
            csv.WriteField(health?.GcPauseMs);
            csv.WriteField(health?.AvailableMemoryMb);
            await csv.NextRecordAsync();
        }

        await csv.FlushAsync();
    }

    /// <summary>Reads an export document; malformed JSON gives one error saying where.</summary>
    public static async Task<(RunExport? Document, IReadOnlyList<FieldError> Errors)> ReadAsync(Stream json, CancellationToken cancellationToken)
    {
        try
        {
            var document = await JsonSerializer.DeserializeAsync<RunExport>(json, RunPlan.JsonOptions, cancellationToken);
            return document is null
                ? (null, [new FieldError("$", "The document is empty (null).")])
                : (document, []);
        }
        catch (JsonException ex)
        {
            return (null, [new FieldError(ex.Path ?? "$", $"Not a run export. {JsonErrorText.Describe(ex)}")]);
        }
    }

    private const int MaxNameLength = 200;
    private const int MaxNotesLength = 10_000;
    private const int MaxReasonLength = 2_000;
    private const int MaxOriginLength = 1_000;

    /// <summary>The part of a headless run's machine name its import key keeps (the key is at most 200 characters).</summary>
    private const int MaxImportKeyMachineLength = 100;

    /// <summary>Every reason the document cannot be imported, each naming its field. Empty when it can. Its plan is a
    /// plan from the web (<see cref="WebPlanRules"/>): it may name a file uploaded here, never a server path.</summary>
    public async Task<IReadOnlyList<FieldError>> ValidateAsync(RunExport document, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(document);
        return Validate(document, document.Plan is { } plan ? await uploads.LookupAsync(plan, cancellationToken) : static _ => null, time.GetUtcNow());
    }

    /// <summary>Every reason the document cannot be imported, each naming its field. Empty when it can.</summary>
    /// <param name="document">The export document.</param>
    /// <param name="uploadedFile">An uploaded file's stored path by number; null for none (the default knows no files).</param>
    /// <param name="now">This server's time, past which (beyond a small clock skew) no run can have started or ended; null:
    /// the times are checked for their order only.</param>
    public static IReadOnlyList<FieldError> Validate(RunExport document, Func<long, string?>? uploadedFile = null, DateTimeOffset? now = null)
    {
        ArgumentNullException.ThrowIfNull(document);
        var errors = new List<FieldError>();
        if (document.FormatVersion != RunExport.CurrentFormatVersion)
        {
            errors.Add(new(nameof(RunExport.FormatVersion), document.FormatVersion > RunExport.CurrentFormatVersion
                ? $"Format version {document.FormatVersion} was written by a newer BenchWeb; this one reads version {RunExport.CurrentFormatVersion}."
                : $"Unknown format version {document.FormatVersion}; this BenchWeb reads version {RunExport.CurrentFormatVersion}."));
        }

        if (document.Plan is null)
        {
            errors.Add(new(nameof(RunExport.Plan), "The run's plan is missing."));
        }
        else
        {
            errors.AddRange(WebPlanRules.Validate(document.Plan, uploadedFile ?? (static _ => null))
                .Select(e => e with { Field = $"{nameof(RunExport.Plan)}.{e.Field}" }));
            if (document.Plan.Target.Kind != document.TargetKind)
            {
                errors.Add(new(nameof(RunExport.TargetKind), $"The run says {document.TargetKind} but its plan targets {document.Plan.Target.Kind}."));
            }
            else if (TargetRegistry.IsKnown(document.TargetKind) && document.TargetKind.Module.IsModel is var model
                && (document.TargetIsModel && !model || !document.TargetIsModel && model && document.Seconds is { Count: > 0 }))
            {
                // The pages badge a model's figures as not Azure's: the badge is the kind's, never the document's word. (A run
                // that ended before its target opened measured nothing, and was never told it was a model's.)
                errors.Add(new(nameof(RunExport.TargetIsModel), document.TargetIsModel
                    ? $"{document.TargetKind.Module.DisplayName} is a service, not a model: its figures are measured."
                    : $"{document.TargetKind.Module.DisplayName} is a model: its figures are never a service's."));
            }
        }

        if (!TerminalStatuses.Contains(document.Status))
        {
            errors.Add(new(nameof(RunExport.Status), $"Only ended runs can be imported ({string.Join(", ", TerminalStatuses)}); this one is {document.Status}."));
        }

        RunExportRanges.CheckTimes(document, now ?? DateTimeOffset.MaxValue - RunExportRanges.ClockSkewAllowance, errors);
        if (document.ProvisionedRequestUnits is { } provisioned && !(provisioned >= 0 && provisioned <= RunExportRanges.MaxRequestUnits))
        {
            errors.Add(new(nameof(RunExport.ProvisionedRequestUnits), string.Create(CultureInfo.InvariantCulture,
                $"Must be a number from 0 to {RunExportRanges.MaxRequestUnits:#,0} RU/s; this document says {provisioned:G6}.")));
        }

        var seconds = document.Seconds ?? [];
        if (seconds.Count > RunExportRanges.MaxSeconds)
        {
            errors.Add(new(nameof(RunExport.Seconds), string.Create(CultureInfo.InvariantCulture,
                $"At most {RunExportRanges.MaxSeconds:N0} seconds (a run of 100 days); this document has {seconds.Count:N0}.")));
            seconds = [];
        }

        var errorsBeforeSeconds = errors.Count;
        for (var i = 0; i < seconds.Count; i++)
        {
            var second = seconds[i];
            var field = $"{nameof(RunExport.Seconds)}[{i}]";
            if (second is null)
            {
                errors.Add(new(field, "A second is null."));
                break;
            }

            if (second.Index != i)
            {
                errors.Add(new($"{field}.{nameof(RunExportSecond.Index)}",
                    $"Expected second {i} but found {second.Index}: seconds must be numbered 0, 1, 2… with none missing or repeated."));
                break;
            }

            if (second.Ok < 0 || second.OkRequests < 0 || second.Throttled < 0 || second.Errors < 0 || second.Bytes < 0 || second.DurationSeconds < 0
                || second.Issued < 0 || second.Dropped < 0 || second.GivenUp < 0 || second.InFlight < 0 || second.RequestUnits < 0
                || second.LatencyP50Ms < 0 || second.LatencyP95Ms < 0 || second.LatencyP99Ms < 0 || second.LatencyMaxMs < 0)
            {
                errors.Add(new(field, "Counts, request units, latencies and the duration cannot be negative."));
            }

            RunExportRanges.CheckSecond(second, field, errors);
            if (i > 0 && seconds[i - 1] is { } before && !(second.ElapsedSeconds > before.ElapsedSeconds))
            {
                errors.Add(new($"{field}.{nameof(RunExportSecond.ElapsedSeconds)}", string.Create(CultureInfo.InvariantCulture,
                    $"Second {i} ends at {second.ElapsedSeconds:0.###} s, not after second {i - 1} ({before.ElapsedSeconds:0.###} s): a run's seconds follow each other.")));
            }

            if (errors.Count - errorsBeforeSeconds >= RunExportRanges.MaxErrors)
            {
                break;
            }
        }

        var secondsChecked = errors.All(e => !e.Field.StartsWith(nameof(RunExport.Seconds), StringComparison.Ordinal));
        // The seconds as the engine counted them, once they read as seconds: the totals and the derived figures are checked on them.
        IReadOnlyList<SecondSnapshot>? snapshots = secondsChecked ? [.. seconds.Select(s => s.ToSnapshot())] : null;

        if (document.Summary is null)
        {
            if (seconds.Count > 0)
            {
                errors.Add(new(nameof(RunExport.Summary), "The run has seconds but no summary."));
            }
        }
        else if (snapshots is not null)
        {
            RunExportRanges.CheckTotals(document.Summary, snapshots, errors);
        }

        if (document.Summary is { } counted && (counted.TotalOk < 0 || counted.TotalOkRequests < 0 || counted.TotalThrottled < 0 || counted.TotalErrors < 0
            || counted.TotalIssued < 0 || counted.TotalDropped < 0 || counted.TotalGivenUp < 0))
        {
            errors.Add(new(nameof(RunExport.Summary), "The summary's counts cannot be negative."));
        }

        // A staged run's stages partition its seconds: more stages than a plan may have, a negative count, or documents that do
        // not add up to the total were not written by a run.
        if (document.Summary is { Stages.Count: > 0 } staged && (staged.Stages.Count > LoadOptions.MaxStages
            || staged.Stages.Any(stage => stage is null || stage.Ok < 0 || stage.OkRequests < 0 || stage.Throttled < 0 || stage.Errors < 0 || stage.Issued < 0 || stage.Dropped < 0
                || stage.SentLate < 0 || stage.NotStarted < 0 || stage.Abandoned < 0 || stage.GivenUpRequests < 0 || stage.ClientLimitedSeconds < 0)
            || staged.Stages.Aggregate((Int128)0, (sum, stage) => sum + stage.Ok) != staged.TotalOk))
        {
            errors.Add(new($"{nameof(RunExport.Summary)}.{nameof(RunSummary.Stages)}", "The stages' figures do not fit the run: at most 50 stages, no negative count, documents adding up to the total."));
        }

        if (document.Summary is { } measured)
        {
            RunExportRanges.CheckSummary(measured, seconds, snapshots, errors);
        }

        if (document.AbandonedRequests < 0)
        {
            errors.Add(new(nameof(RunExport.AbandonedRequests), "Cannot be negative."));
        }

        if (document.Summary is { } summary && (summary.Latency is null || summary.SteadyState is null))
        {
            errors.Add(new(nameof(RunExport.Summary), "The summary lacks its latency or steady-state part."));
        }

        if (document.SteadyStateFirst is null != document.SteadyStateLast is null)
        {
            errors.Add(new(nameof(RunExport.SteadyStateFirst), "A steady-state window needs both its first and its last second, or neither."));
        }

        if (document.Plan is { } named && named.Name.Length > MaxNameLength)
        {
            errors.Add(new("Plan.Name", $"At most {MaxNameLength} characters."));
        }

        if (document.Notes is { Length: > MaxNotesLength })
        {
            errors.Add(new(nameof(RunExport.Notes), $"At most {MaxNotesLength:N0} characters."));
        }

        // Every text that an import stores, and pages and lists show, is bounded.
        void Bound(string? text, int max, string field)
        {
            if (text is { } value && value.Length > max)
            {
                errors.Add(new(field, $"At most {max:N0} characters."));
            }
        }

        Bound(document.ProfileName, MaxNameLength, nameof(RunExport.ProfileName));
        Bound(document.ExportedFrom, MaxNameLength, nameof(RunExport.ExportedFrom));
        Bound(document.ImportedFrom, MaxOriginLength, nameof(RunExport.ImportedFrom));
        Bound(document.PresetId, 50, nameof(RunExport.PresetId));
        Bound(document.TargetDescription, MaxReasonLength, nameof(RunExport.TargetDescription));
        Bound(document.StopReason, MaxReasonLength, nameof(RunExport.StopReason));
        Bound(document.FailureReason, MaxReasonLength, nameof(RunExport.FailureReason));
        Bound(document.FirstError, MaxReasonLength, nameof(RunExport.FirstError));
        if (document.Tags is { } tags && (tags.Count > RunTags.MaxTags || tags.Any(t => t is null || t.Length > RunTags.MaxTagLength)))
        {
            errors.Add(new(nameof(RunExport.Tags), $"At most {RunTags.MaxTags} tags of at most {RunTags.MaxTagLength} characters each."));
        }

        // The names, tags and notes an import stores are shown and exported as if typed here: the same plain-text rule.
        void Plain(string? text, string field, bool allowLineBreaks = false)
        {
            if (PlainText.Check(text, allowLineBreaks) is { } unprintable)
            {
                errors.Add(new(field, unprintable));
            }
        }

        Plain(document.ProfileName, nameof(RunExport.ProfileName));
        Plain(document.ExportedFrom, nameof(RunExport.ExportedFrom));
        Plain(document.Notes, nameof(RunExport.Notes), allowLineBreaks: true);
        Plain(document.Tags is { } typed ? string.Join(",", typed) : null, nameof(RunExport.Tags));
        foreach (var (text, field) in new[] { (document.TargetDescription, nameof(RunExport.TargetDescription)), (document.StopReason, nameof(RunExport.StopReason)),
            (document.FailureReason, nameof(RunExport.FailureReason)), (document.FirstError, nameof(RunExport.FirstError)) })
        {
            // Shown in the run's header: printable, line breaks allowed (an SDK's message may have them); a credential is redacted below.
            if (PlainText.Check(text, allowLineBreaks: true, refuseCredentials: false) is { } unprintable)
            {
                errors.Add(new(field, unprintable));
            }
        }

        // The client's environment is shown as it came: every text in it one printable line of bounded length.
        if (document.Environment is { } environment)
        {
            var texts = new Stack<(JsonNode? Node, string Path)>([(JsonSerializer.SerializeToNode(environment, RunPlan.JsonOptions), nameof(RunExport.Environment))]);
            while (texts.TryPop(out var item) && errors.Count < RunExportRanges.MaxErrors * 2)
            {
                switch (item.Node)
                {
                    case JsonObject obj:
                        foreach (var (name, child) in obj)
                        {
                            texts.Push((child, $"{item.Path}.{name}"));
                        }

                        break;
                    case JsonArray array:
                        for (var k = 0; k < array.Count; k++)
                        {
                            texts.Push((array[k], $"{item.Path}[{k}]"));
                        }

                        break;
                    case JsonValue value when value.TryGetValue<string>(out var text):
                        Bound(text, MaxReasonLength, item.Path);
                        Plain(text, item.Path);
                        break;
                }
            }
        }

        // The metadata is held to the bounds of a launch's: it is shown, filtered on and exported the same way.
        errors.AddRange((document.Metadata ?? RunMetadata.Empty).Validate(nameof(RunExport.Metadata)));

        if (document.SteadyStateFirst is { } first && document.SteadyStateLast is { } last && (first < 0 || last >= seconds.Count || first > last))
        {
            errors.Add(new(nameof(RunExport.SteadyStateFirst), $"The steady-state window {first}–{last} is not within the run's {seconds.Count} seconds."));
        }

        ImportedSlowRequests.Check(document.SlowRequests, seconds.Count, errors);
        return errors;
    }

    /// <summary>What makes a run the same run wherever its export travels: its number where it ran, when it started (or
    /// was queued, for a run that never started) and its kind of target; for a headless run, which has no number, the
    /// machine that ran it in its place. A second import of it would count it twice in every comparison and list.</summary>
    public static string ImportKeyOf(RunExport document)
    {
        ArgumentNullException.ThrowIfNull(document);
        var start = (document.StartedAt ?? document.QueuedAt).UtcDateTime;
        var key = string.Create(CultureInfo.InvariantCulture, $"{document.RunId}|{start:yyyy-MM-ddTHH:mm:ss.fffffffZ}|{document.TargetKind}");
        if (document.RunId is null)
        {
            var machine = document.ExportedFrom ?? "";
            key = $"headless|{key}|{machine[..Math.Min(machine.Length, MaxImportKeyMachineLength)]}";
        }

        return key;
    }

    /// <summary>The run this document is here already: one of this installation's own (started at the same instant on the same
    /// kind of target, whatever number the document gives it: it may come back through another installation), the run it
    /// was imported as, or, for an export of an imported run, that run under its number here.</summary>
    public async Task<RunAlreadyImported?> FindImportedAsync(RunExport document, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(document);
        var key = ImportKeyOf(document);
        var kind = document.TargetKind;
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        var own = document.StartedAt is { } started
            ? db.Runs.Where(r => r.ImportKey == null && r.TargetKind == kind && r.StartedAt == started)
            : db.Runs.Where(r => r.ImportKey == null && r.TargetKind == kind && r.StartedAt == null && r.QueuedAt == document.QueuedAt);
        if (await own.AsNoTracking().OrderBy(r => r.Id).Select(r => (long?)r.Id).FirstOrDefaultAsync(cancellationToken) is { } ranHere)
        {
            return new RunAlreadyImported(ranHere, null, RanHere: true);
        }

        if (document.RunId is { } id && await db.Runs.AsNoTracking().Where(r => r.Id == id && r.ImportKey != null)
                .Select(r => new { r.StartedAt, r.QueuedAt, r.TargetKind, r.ImportedAt }).SingleOrDefaultAsync(cancellationToken) is { } imported
            && (imported.StartedAt ?? imported.QueuedAt) == (document.StartedAt ?? document.QueuedAt) && imported.TargetKind == kind)
        {
            return new RunAlreadyImported(id, imported.ImportedAt);
        }

        return await db.Runs.AsNoTracking().Where(r => r.ImportKey == key)
            .Select(r => new RunAlreadyImported(r.Id, r.ImportedAt, false))
            .SingleOrDefaultAsync(cancellationToken);
    }

    /// <summary>Stores the run as an imported one and returns its new number.</summary>
    /// <exception cref="ArgumentException">The document is not valid (see <see cref="Validate"/>).</exception>
    /// <exception cref="RunAlreadyImportedException">This run was imported before.</exception>
    public async Task<long> ImportAsync(RunExport document, Actor actor, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(document);
        ArgumentNullException.ThrowIfNull(actor);
        var errors = await ValidateAsync(document, cancellationToken);
        if (errors.Count > 0)
        {
            throw new ArgumentException("The run export is invalid: " + string.Join("; ", errors), nameof(document));
        }

        var plan = document.Plan!;
        var summary = document.Summary;
        var run = new RunEntity
        {
            ProfileName = string.IsNullOrWhiteSpace(document.ProfileName) ? plan.Name : document.ProfileName,
            PresetId = document.PresetId,
            PlanJson = plan.ToJson(),
            Status = document.Status,
            TargetKind = plan.Target.Kind,
            // Stored times are UTC: the database orders them by their clock reading, not by the instant.
            QueuedAt = document.QueuedAt.ToUniversalTime(),
            StartedAt = document.StartedAt?.ToUniversalTime(),
            EndedAt = document.EndedAt?.ToUniversalTime(),
            // The engine's texts as another installation wrote them: anything shaped like a credential is redacted, as in its
            // slow requests' diagnostics (an SDK's message may quote a signed address).
            TargetDescription = Redacted(document.TargetDescription),
            TargetIsModel = document.TargetIsModel,
            ProvisionedRequestUnits = document.ProvisionedRequestUnits,
            EnvironmentJson = Write(document.Environment),
            SummaryJson = Write(summary),
            StopReason = Redacted(document.StopReason),
            FailureReason = Redacted(document.FailureReason),
            FirstError = Redacted(document.FirstError),
            AbandonedRequests = document.AbandonedRequests,
            ElapsedSeconds = summary?.Elapsed.TotalSeconds,
            AverageThroughput = summary?.AverageThroughput,
            P99LatencyMs = summary?.Latency.P99Ms,
            ThrottledFraction = summary?.ThrottledFraction,
            Verdict = document.Verdict is null ? null : document.Verdict.Passed ? "Passed" : "Failed",
            VerdictJson = Write(document.Verdict),
            Notes = document.Notes,
            Tags = RunTags.Normalize(string.Join(',', document.Tags ?? [])),
            MetadataJson = document.Metadata?.ToStored(),
            SteadyStateFirst = document.SteadyStateFirst,
            SteadyStateLast = document.SteadyStateLast,
            ImportedAt = time.GetUtcNow(),
            ImportedFrom = DescribeOrigin(document),
            ImportKey = ImportKeyOf(document),
        };
        run.Seconds.AddRange(document.Seconds.Select(ToEntity));

        if (await FindImportedAsync(document, cancellationToken) is { } earlier)
        {
            throw new RunAlreadyImportedException(earlier);
        }

        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        db.Runs.Add(run);
        try
        {
            await db.SaveChangesAsync(cancellationToken);
        }
        catch (DbUpdateException)
        {
            // The same run imported at the same moment by another request: the unique key kept one.
            if (await FindImportedAsync(document, CancellationToken.None) is { } raced)
            {
                throw new RunAlreadyImportedException(raced);
            }

            throw;
        }

        // The slow requests once the run has its number; numbered as the document lists them.
        // Texts from elsewhere are redacted as this installation's own are: anything shaped like a credential goes.
        db.RunDiagnostics.AddRange((document.SlowRequests ?? []).Select((request, number) => RunDiagnosticEntity.From(run.Id, 0, number, request with
        {
            Text = CredentialRedaction.Redact(request.Text, []),
            Summary = CredentialRedaction.Redact(request.Summary, []),
        })));
        audit.Append(db, actor, AuditActions.RunImported, $"run #{run.Id}", $"“{run.ProfileName}” ({run.Status}) from {run.ImportedFrom}", AuditLog.EndpointOf(plan, null));
        await db.SaveChangesAsync(cancellationToken);
        return run.Id;
    }

    /// <summary>Where an imported run came from, e.g. "build-agent-7, run #12, exported 2026-03-01 14:05 UTC", or for the
    /// result file of a headless run "build-agent-7, a headless run, written 2026-03-01 14:05 UTC".</summary>
    public static string DescribeOrigin(RunExport document)
    {
        ArgumentNullException.ThrowIfNull(document);
        var machine = string.IsNullOrWhiteSpace(document.ExportedFrom) ? "an unnamed machine" : document.ExportedFrom.Trim();
        var origin = document.RunId is { } runId
            ? string.Create(CultureInfo.InvariantCulture, $"{machine}, run #{runId}, exported {document.ExportedAt.UtcDateTime:yyyy-MM-dd HH:mm} UTC")
            : string.Create(CultureInfo.InvariantCulture, $"{machine}, a headless run, written {document.ExportedAt.UtcDateTime:yyyy-MM-dd HH:mm} UTC");
        return document.ImportedFrom is { Length: > 0 } first ? $"{origin} (imported there from {first})" : origin;
    }

    // A last second of a few milliseconds is no rate: the cell stays empty, its counts and duration are in the row.
    private static double? PerSecond(double value, double duration) => duration >= RunLiveState.ShortestRateSecond ? value / duration : null;

    private static T? Read<T>(string? json)
        where T : class => json is null ? null : JsonSerializer.Deserialize<T>(json, RunPlan.JsonOptions);

    private static string? Redacted(string? text) => text is null ? null : CredentialRedaction.Redact(text, []);

    private static string? Write<T>(T? value)
        where T : class => value is null ? null : JsonSerializer.Serialize(value, RunPlan.JsonOptions);

    // A saved second as exported: its times as saved, to the last digit (through a TimeSpan they would be rounded to its ticks).
    private static RunExportSecond ToExport(RunSecondEntity second) =>
        RunExportSecond.From(second.ToSnapshot(), second.ClosedAt) with { ElapsedSeconds = second.ElapsedSeconds, DurationSeconds = second.DurationSeconds };

    private static RunSecondEntity ToEntity(RunExportSecond second)
    {
        var entity = RunSecondEntity.From(0, second.ToSnapshot(), second.ClosedAt.ToUniversalTime());

        // The times as written, to the last digit: through a TimeSpan they would be rounded to its ticks.
        entity.ElapsedSeconds = second.ElapsedSeconds;
        entity.DurationSeconds = second.DurationSeconds;
        return entity;
    }
}
