using System.Globalization;
using BenchEngine.Metrics;
using BenchEngine.Running;

namespace BenchWeb.Transfer;

/// <summary>The ranges an imported run's client health and request buckets must be in (<see cref="RunTransfer.Validate"/>):
/// what a run can measure, with room to spare, so that a crafted figure is refused naming its field instead of reaching a
/// page, a chart or a sum that overflows.</summary>
internal static class RunExportRanges
{
    /// <summary>Requests of one bucket in one second: far beyond any client, and small enough that a document's sums (at most
    /// a few hundred thousand seconds fit in a request) cannot overflow.</summary>
    public const long MaxCountPerSecond = 1_000_000_000_000;

    /// <summary>A delay or pause within one second's figures, in ms: a day (a suspended machine wakes this late).</summary>
    public const double MaxMilliseconds = 86_400_000;

    /// <summary>A run's elapsed time, in seconds: far beyond the longest run an installation allows.</summary>
    public const double MaxElapsedSeconds = 100 * 24 * 3600;

    /// <summary>Seconds in one document: a run as long as <see cref="MaxElapsedSeconds"/>. With
    /// <see cref="MaxCountPerSecond"/> it bounds every sum of a count over the seconds below <see cref="long.MaxValue"/>.</summary>
    public const int MaxSeconds = (int)MaxElapsedSeconds;

    /// <summary>Bytes of one second: a petabyte.</summary>
    public const long MaxBytesPerSecond = 1L << 50;

    /// <summary>Request units of one second, or of a provisioned throughput: far beyond any account.</summary>
    public const double MaxRequestUnits = 1e12;

    /// <summary>How far past this server's clock a run may have started or ended: another machine's clock may be ahead.</summary>
    public static readonly TimeSpan ClockSkewAllowance = TimeSpan.FromMinutes(5);

    /// <summary>The runtime's thread pool never has more threads than this.</summary>
    public const int MaxThreads = short.MaxValue;

    /// <summary>Available memory, in MiB: an exbibyte.</summary>
    public const long MaxMemoryMb = 1L << 40;

    /// <summary>Errors reported before the check stops looking: one bad figure repeated in every second is one problem.</summary>
    public const int MaxErrors = 20;

    private static readonly ClientLimitKinds AllKinds = Enum.GetValues<ClientLimitKinds>().Aggregate(ClientLimitKinds.None, (all, kind) => all | kind);

    /// <summary>One second's figures beyond the signs of its counts: its times, CPU, request units and latencies finite and in
    /// range, its buckets and its health.</summary>
    public static void CheckSecond(RunExportSecond second, string field, List<FieldError> errors)
    {
        Number(second.ElapsedSeconds, 0, MaxElapsedSeconds, "s", $"{field}.{nameof(RunExportSecond.ElapsedSeconds)}", errors);
        Number(second.DurationSeconds, 0, MaxMilliseconds / 1000, "s", $"{field}.{nameof(RunExportSecond.DurationSeconds)}", errors);
        Number(second.ClientCpuPercent, 0, 100, "% of all cores", $"{field}.{nameof(RunExportSecond.ClientCpuPercent)}", errors);
        Number(second.RequestUnits, 0, MaxRequestUnits, "RU", $"{field}.{nameof(RunExportSecond.RequestUnits)}", errors);
        foreach (var (count, name) in new[]
        {
            (second.Ok, nameof(RunExportSecond.Ok)), (second.OkRequests, nameof(RunExportSecond.OkRequests)),
            (second.Throttled, nameof(RunExportSecond.Throttled)), (second.Errors, nameof(RunExportSecond.Errors)),
            (second.Issued, nameof(RunExportSecond.Issued)), (second.Dropped, nameof(RunExportSecond.Dropped)),
            (second.GivenUp, nameof(RunExportSecond.GivenUp)), (second.InFlight, nameof(RunExportSecond.InFlight)),
        })
        {
            Count(count, MaxCountPerSecond, $"{field}.{name}", errors);
        }

        Count(second.Bytes, MaxBytesPerSecond, $"{field}.{nameof(RunExportSecond.Bytes)}", errors);
        foreach (var (status, count) in second.ErrorsByStatus ?? new Dictionary<int, long>())
        {
            Count(count, MaxCountPerSecond, $"{field}.{nameof(RunExportSecond.ErrorsByStatus)}[{status}]", errors);
        }

        // A second's percentiles: milliseconds within bounds, going up from P50 to its slowest request as the summary's do.
        (double? Value, string Name, string Label)? lower = null;
        foreach (var percentile in new (double? Value, string Name, string Label)[]
        {
            (second.LatencyP50Ms, nameof(RunExportSecond.LatencyP50Ms), "P50"), (second.LatencyP95Ms, nameof(RunExportSecond.LatencyP95Ms), "P95"),
            (second.LatencyP99Ms, nameof(RunExportSecond.LatencyP99Ms), "P99"), (second.LatencyMaxMs, nameof(RunExportSecond.LatencyMaxMs), "slowest"),
        })
        {
            if (percentile.Value is not { } value)
            {
                continue;
            }

            Number(value, 0, MaxMilliseconds, "ms", $"{field}.{percentile.Name}", errors);
            if (lower is { Value: { } below } && value < below)
            {
                errors.Add(new($"{field}.{percentile.Name}", string.Create(CultureInfo.InvariantCulture,
                    $"{value} ms is below the second's {lower.Value.Label} ({below} ms): its percentiles go up from P50 to the slowest request.")));
            }

            lower = percentile;
        }

        Count(second.SentLate, MaxCountPerSecond, $"{field}.{nameof(RunExportSecond.SentLate)}", errors);
        Count(second.NotStarted, MaxCountPerSecond, $"{field}.{nameof(RunExportSecond.NotStarted)}", errors);
        Count(second.Abandoned, MaxCountPerSecond, $"{field}.{nameof(RunExportSecond.Abandoned)}", errors);
        Count(second.GivenUpRequests, MaxCountPerSecond, $"{field}.{nameof(RunExportSecond.GivenUpRequests)}", errors);
        if (second.Health is { } health)
        {
            CheckHealth(health, $"{field}.{nameof(RunExportSecond.Health)}", errors);
        }
    }

    /// <summary>A second's client health: shares of the CPU 0–100, delays and pauses at most a day, no NaN or infinity, only
    /// the bounds <see cref="ClientLimitKinds"/> names.</summary>
    public static void CheckHealth(ClientHealth health, string field, List<FieldError> errors)
    {
        if (health.HostCpuPercent is { } host)
        {
            Number(host, 0, 100, "% of all cores", $"{field}.{nameof(ClientHealth.HostCpuPercent)}", errors);
        }

        Number(health.SchedulingLagP50Ms, 0, MaxMilliseconds, "ms", $"{field}.{nameof(ClientHealth.SchedulingLagP50Ms)}", errors);
        Number(health.SchedulingLagP99Ms, 0, MaxMilliseconds, "ms", $"{field}.{nameof(ClientHealth.SchedulingLagP99Ms)}", errors);
        Number(health.SchedulingLagMaxMs, 0, MaxMilliseconds, "ms", $"{field}.{nameof(ClientHealth.SchedulingLagMaxMs)}", errors);
        Number(health.ClockLagMs, 0, MaxMilliseconds, "ms", $"{field}.{nameof(ClientHealth.ClockLagMs)}", errors);
        Number(health.GcPauseMs, 0, MaxMilliseconds, "ms", $"{field}.{nameof(ClientHealth.GcPauseMs)}", errors);
        Count(health.ThreadPoolQueueMax, MaxCountPerSecond, $"{field}.{nameof(ClientHealth.ThreadPoolQueueMax)}", errors);
        Count(health.ThreadPoolThreads, MaxThreads, $"{field}.{nameof(ClientHealth.ThreadPoolThreads)}", errors);
        Count(health.ThreadInjections, MaxThreads, $"{field}.{nameof(ClientHealth.ThreadInjections)}", errors);
        if (health.AvailableMemoryMb is { } memory)
        {
            Count(memory, MaxMemoryMb, $"{field}.{nameof(ClientHealth.AvailableMemoryMb)}", errors);
        }

        if ((health.Limits & ~AllKinds) != 0)
        {
            errors.Add(new($"{field}.{nameof(ClientHealth.Limits)}",
                $"Only these bounds exist: {string.Join(", ", Enum.GetNames<ClientLimitKinds>().Skip(1))}; this document names {(int)health.Limits:D}."));
        }
    }

    /// <summary>The summary's client-limited figures and request buckets. Its spans must be those its seconds give: a page shows
    /// their words, so they are the engine's words for these seconds, never the document's own. A document written before
    /// client health was kept has neither spans nor health, and is not held to it.</summary>
    /// <param name="summary">The document's summary.</param>
    /// <param name="seconds">Its seconds, already checked.</param>
    /// <param name="snapshots">The same seconds as the engine reads them; null when they failed their own checks.</param>
    /// <param name="errors">Where each problem goes, naming its field.</param>
    public static void CheckSummary(RunSummary summary, IReadOnlyList<RunExportSecond> seconds, IReadOnlyList<SecondSnapshot>? snapshots, List<FieldError> errors)
    {
        const string Field = nameof(RunExport.Summary);
        Count(summary.TotalOffered, long.MaxValue, $"{Field}.{nameof(RunSummary.TotalOffered)}", errors);
        Count(summary.TotalSentLate, long.MaxValue, $"{Field}.{nameof(RunSummary.TotalSentLate)}", errors);
        Count(summary.TotalNotStarted, long.MaxValue, $"{Field}.{nameof(RunSummary.TotalNotStarted)}", errors);
        Count(summary.TotalAbandoned, long.MaxValue, $"{Field}.{nameof(RunSummary.TotalAbandoned)}", errors);
        Count(summary.TotalGivenUpRequests, long.MaxValue, $"{Field}.{nameof(RunSummary.TotalGivenUpRequests)}", errors);
        Count(summary.ClientLimitedSeconds, seconds.Count, $"{Field}.{nameof(RunSummary.ClientLimitedSeconds)}", errors);
        Count(summary.PerSecondLeftOut, seconds.Count, $"{Field}.{nameof(RunSummary.PerSecondLeftOut)}", errors);
        if (summary.SteadyState is { } steady)
        {
            Count(steady.SecondsLeftOut, seconds.Count, $"{Field}.{nameof(RunSummary.SteadyState)}.{nameof(SteadyStateWindow.SecondsLeftOut)}", errors);

            // A window of the run's seconds, first to last (none when the last is the one before the first).
            if (steady.FirstSecond < 0 || steady.LastSecond >= seconds.Count || steady.LastSecond < steady.FirstSecond - 1)
            {
                errors.Add(new($"{Field}.{nameof(RunSummary.SteadyState)}", string.Create(CultureInfo.InvariantCulture,
                    $"Seconds {steady.FirstSecond}–{steady.LastSecond} are no window of the run's {seconds.Count} seconds (0–{seconds.Count - 1}, the first no later than the last).")));
            }
        }

        if (summary.WorstClientSecond is { } worst)
        {
            var field = $"{Field}.{nameof(RunSummary.WorstClientSecond)}";
            if (worst.Index < 0 || worst.Index >= seconds.Count)
            {
                errors.Add(new($"{field}.{nameof(ClientSecond.Index)}", $"Second {worst.Index} is not one of the run's {seconds.Count} seconds."));
            }

            Number(worst.ClientCpuPercent, 0, 100, "% of all cores", $"{field}.{nameof(ClientSecond.ClientCpuPercent)}", errors);
            if (worst.Health is null)
            {
                errors.Add(new($"{field}.{nameof(ClientSecond.Health)}", "The worst client second has no health figures."));
            }
            else
            {
                CheckHealth(worst.Health, $"{field}.{nameof(ClientSecond.Health)}", errors);
            }

            if (worst.Reason is null || worst.Reason.Length > MaxReasonLength)
            {
                errors.Add(new($"{field}.{nameof(ClientSecond.Reason)}", $"At most {MaxReasonLength:N0} characters."));
            }
        }

        CheckSpans(summary.ClientLimitedSpans, seconds, snapshots, $"{Field}.{nameof(RunSummary.ClientLimitedSpans)}", errors);
        CheckFigures(summary, errors);
    }

    /// <summary>The summary's own figures, which the run's row and pages show as they are: each finite and in range, so none
    /// reaches the database as NaN or a page as an absurd number.</summary>
    private static void CheckFigures(RunSummary summary, List<FieldError> errors)
    {
        const string Field = nameof(RunExport.Summary);
        var maxTotal = MaxCountPerSecond * MaxSeconds;
        Number(summary.Elapsed.TotalSeconds, 0, MaxElapsedSeconds, "s", $"{Field}.{nameof(RunSummary.Elapsed)}", errors);
        foreach (var (count, name) in new[]
        {
            (summary.TotalOk, nameof(RunSummary.TotalOk)), (summary.TotalOkRequests, nameof(RunSummary.TotalOkRequests)),
            (summary.TotalThrottled, nameof(RunSummary.TotalThrottled)), (summary.TotalErrors, nameof(RunSummary.TotalErrors)),
            (summary.TotalIssued, nameof(RunSummary.TotalIssued)), (summary.TotalDropped, nameof(RunSummary.TotalDropped)),
            (summary.TotalGivenUp, nameof(RunSummary.TotalGivenUp)), (summary.Latency?.Count ?? 0, $"{nameof(RunSummary.Latency)}.{nameof(LatencySummary.Count)}"),
        })
        {
            Count(count, maxTotal, $"{Field}.{name}", errors);
        }

        foreach (var (rate, name) in new[]
        {
            (summary.OfferedRequestsPerSecond, nameof(RunSummary.OfferedRequestsPerSecond)), (summary.AchievedRequestsPerSecond, nameof(RunSummary.AchievedRequestsPerSecond)),
            (summary.AverageThroughput, nameof(RunSummary.AverageThroughput)), (summary.MeanPerSecondThroughput, nameof(RunSummary.MeanPerSecondThroughput)),
            (summary.P99PerSecondThroughput, nameof(RunSummary.P99PerSecondThroughput)), (summary.Top10PercentMeanThroughput, nameof(RunSummary.Top10PercentMeanThroughput)),
            (summary.SteadyState?.MeanThroughput, $"{nameof(RunSummary.SteadyState)}.{nameof(SteadyStateWindow.MeanThroughput)}"),
        })
        {
            Optional(rate, 0, MaxCountPerSecond, "per second", $"{Field}.{name}", errors);
        }

        foreach (var (units, name) in new[]
        {
            (summary.TotalRequestUnits, nameof(RunSummary.TotalRequestUnits)), (summary.RequestUnitsPerSecond, nameof(RunSummary.RequestUnitsPerSecond)),
            (summary.RequestUnitsPerInsert, nameof(RunSummary.RequestUnitsPerInsert)), (summary.ProvisionedRequestUnitsPerSecond, nameof(RunSummary.ProvisionedRequestUnitsPerSecond)),
            (summary.SteadyState?.RequestUnitsPerSecond, $"{nameof(RunSummary.SteadyState)}.{nameof(SteadyStateWindow.RequestUnitsPerSecond)}"),
        })
        {
            Optional(units, 0, name == nameof(RunSummary.TotalRequestUnits) ? MaxRequestUnits * MaxSeconds : MaxRequestUnits, "RU", $"{Field}.{name}", errors);
        }

        foreach (var (share, name) in new[]
        {
            (summary.DroppedFraction, nameof(RunSummary.DroppedFraction)), (summary.ThrottledFraction, nameof(RunSummary.ThrottledFraction)),
            (summary.SteadyState?.ThrottledFraction ?? 0, $"{nameof(RunSummary.SteadyState)}.{nameof(SteadyStateWindow.ThrottledFraction)}"),
        })
        {
            Number(share, 0, 1, "(a share)", $"{Field}.{name}", errors);
        }

        Optional(summary.EstimatedCostOfRun, 0, double.MaxValue, "$", $"{Field}.{nameof(RunSummary.EstimatedCostOfRun)}", errors);
        Optional(summary.EstimatedCostPerMonth, 0, double.MaxValue, "$", $"{Field}.{nameof(RunSummary.EstimatedCostPerMonth)}", errors);
        Number(summary.MaxClientCpuPercent, 0, 100, "% of all cores", $"{Field}.{nameof(RunSummary.MaxClientCpuPercent)}", errors);
        var latency = summary.Latency ?? new LatencySummary();
        foreach (var (value, name) in new[]
        {
            (latency.MeanMs, nameof(LatencySummary.MeanMs)), (latency.P50Ms, nameof(LatencySummary.P50Ms)), (latency.P75Ms, nameof(LatencySummary.P75Ms)),
            (latency.P90Ms, nameof(LatencySummary.P90Ms)), (latency.P95Ms, nameof(LatencySummary.P95Ms)), (latency.P96Ms, nameof(LatencySummary.P96Ms)),
            (latency.P98Ms, nameof(LatencySummary.P98Ms)), (latency.P99Ms, nameof(LatencySummary.P99Ms)), (latency.P999Ms, nameof(LatencySummary.P999Ms)),
            (latency.MaxMs, nameof(LatencySummary.MaxMs)),
        })
        {
            Optional(value, 0, MaxMilliseconds, "ms", $"{Field}.{nameof(RunSummary.Latency)}.{name}", errors);
        }
    }

    /// <summary>The summary's counts are its seconds' sums, and the figures worked out from them (rates, shares, request units a
    /// document) are those sums' own: a page shows the summary beside charts of the seconds, so the two must never disagree.
    /// Its latency percentiles, which no second holds, go up from P50 to the maximum.</summary>
    /// <param name="summary">The document's summary.</param>
    /// <param name="snapshots">Its seconds as the engine reads them, already checked.</param>
    /// <param name="errors">Where each problem goes, naming its field.</param>
    public static void CheckTotals(RunSummary summary, IReadOnlyList<SecondSnapshot> snapshots, List<FieldError> errors)
    {
        const string Field = nameof(RunExport.Summary);
        // The seconds are in range (MaxCountPerSecond × MaxSeconds stays below long.MaxValue): their sums cannot overflow.
        var totals = snapshots.Aggregate(SecondTotals.Zero, (sum, second) => sum + SecondTotals.Of(second));
        foreach (var (theirs, ours, name, what) in new[]
        {
            (summary.TotalOk, totals.Ok, nameof(RunSummary.TotalOk), "documents"),
            (summary.TotalOkRequests, totals.OkRequests, nameof(RunSummary.TotalOkRequests), "successful requests"),
            (summary.TotalThrottled, totals.Throttled, nameof(RunSummary.TotalThrottled), "throttled requests"),
            (summary.TotalErrors, totals.Errors, nameof(RunSummary.TotalErrors), "failed requests"),
            (summary.TotalIssued, totals.Issued, nameof(RunSummary.TotalIssued), "requests sent"),
            (summary.TotalDropped, totals.Dropped, nameof(RunSummary.TotalDropped), "requests dropped"),
            (summary.TotalGivenUp, totals.GivenUp, nameof(RunSummary.TotalGivenUp), "documents given up"),
            (summary.TotalGivenUpRequests, totals.GivenUpRequests, nameof(RunSummary.TotalGivenUpRequests), "requests given up"),
            (summary.TotalSentLate, totals.SentLate, nameof(RunSummary.TotalSentLate), "requests sent late"),
            (summary.TotalNotStarted, totals.NotStarted, nameof(RunSummary.TotalNotStarted), "requests not started"),
            (summary.TotalAbandoned, totals.Abandoned, nameof(RunSummary.TotalAbandoned), "requests abandoned"),
        })
        {
            if (theirs != ours)
            {
                errors.Add(new($"{Field}.{name}", string.Create(CultureInfo.InvariantCulture,
                    $"The seconds add up to {ours:N0} {what} but the summary says {theirs:N0}: the document was changed or is incomplete.")));
            }
        }

        var byStatus = new Dictionary<int, long>();
        foreach (var (status, count) in snapshots.SelectMany(s => s.ErrorsByStatus))
        {
            byStatus[status] = byStatus.GetValueOrDefault(status) + count;
        }

        var stated = summary.ErrorsByStatus ?? new Dictionary<int, long>();
        if (stated.Count != byStatus.Count || stated.Any(e => byStatus.GetValueOrDefault(e.Key, -1) != e.Value))
        {
            errors.Add(new($"{Field}.{nameof(RunSummary.ErrorsByStatus)}", "The errors by status are not the sums of the seconds' errors by status: the document was changed or is incomplete."));
        }

        var elapsed = summary.Elapsed.TotalSeconds;
        Derived(summary.AverageThroughput, totals.Throughput(elapsed), nameof(RunSummary.AverageThroughput), "documents per second");
        Derived(summary.ThrottledFraction, totals.ThrottledFraction, nameof(RunSummary.ThrottledFraction), "throttled share");
        if (summary.RequestUnitsReported)
        {
            Derived(summary.TotalRequestUnits, totals.RequestUnits, nameof(RunSummary.TotalRequestUnits), "request units");
            Derived(summary.RequestUnitsPerInsert, totals.RequestUnitsPerInsert, nameof(RunSummary.RequestUnitsPerInsert), "request units a document");
            if (summary.RequestUnitsPerSecond is { } perSecond)
            {
                Derived(perSecond, elapsed > 0 ? totals.RequestUnits / elapsed : null, nameof(RunSummary.RequestUnitsPerSecond), "request units per second");
            }
        }

        if (summary.AchievedRequestsPerSecond is { } achieved)
        {
            Derived(achieved, elapsed > 0 ? totals.Issued / elapsed : null, nameof(RunSummary.AchievedRequestsPerSecond), "requests sent per second");
        }

        // Of the full seconds; a document written before a last, partial second was left out of it has every second's highest.
        var maxCpuOfEvery = snapshots.Count == 0 ? 0 : snapshots.Max(s => s.ClientCpuPercent);
        Derived(summary.MaxClientCpuPercent, summary.MaxClientCpuPercent == maxCpuOfEvery ? maxCpuOfEvery : SummaryCalculator.MaxClientCpuPercent(snapshots),
            nameof(RunSummary.MaxClientCpuPercent), "highest client CPU");

        // A manual throughput's cost of the run is its month's for the run's hours (autoscale's follows the seconds' use).
        if (!summary.ProvisionedAutoscale && summary is { EstimatedCostOfRun: { } run, EstimatedCostPerMonth: { } month })
        {
            Derived(run, month * summary.Elapsed.TotalHours / SummaryCalculator.HoursPerMonth, nameof(RunSummary.EstimatedCostOfRun), "cost of the run");
        }

        var latency = summary.Latency ?? new LatencySummary();
        double? previous = null;
        var previousName = "";
        foreach (var (value, name) in new[]
        {
            (latency.P50Ms, nameof(LatencySummary.P50Ms)), (latency.P75Ms, nameof(LatencySummary.P75Ms)), (latency.P90Ms, nameof(LatencySummary.P90Ms)),
            (latency.P95Ms, nameof(LatencySummary.P95Ms)), (latency.P96Ms, nameof(LatencySummary.P96Ms)), (latency.P98Ms, nameof(LatencySummary.P98Ms)),
            (latency.P99Ms, nameof(LatencySummary.P99Ms)), (latency.P999Ms, nameof(LatencySummary.P999Ms)), (latency.MaxMs, nameof(LatencySummary.MaxMs)),
        })
        {
            if (value is not { } ms)
            {
                continue;
            }

            if (previous is { } below && ms < below)
            {
                errors.Add(new($"{Field}.{nameof(RunSummary.Latency)}.{name}", string.Create(CultureInfo.InvariantCulture,
                    $"{ms:0.###} ms is below {previousName} ({below:0.###} ms): percentiles go up from P50 to the maximum.")));
                break;
            }

            (previous, previousName) = (ms, name);
        }

        if (latency is { MeanMs: { } mean, MaxMs: { } max } && mean > max)
        {
            errors.Add(new($"{Field}.{nameof(RunSummary.Latency)}.{nameof(LatencySummary.MeanMs)}", string.Create(CultureInfo.InvariantCulture,
                $"The mean ({mean:0.###} ms) is above the maximum ({max:0.###} ms).")));
        }

        // Worked out from the sums as the engine works it out; a double read back from JSON is the one written.
        void Derived(double? theirs, double? ours, string name, string what)
        {
            var agree = theirs is null || ours is null ? theirs is null == ours is null
                : Math.Abs(theirs.Value - ours.Value) <= 1e-9 * Math.Max(1, Math.Max(Math.Abs(theirs.Value), Math.Abs(ours.Value)));
            if (!agree)
            {
                errors.Add(new($"{Field}.{name}", string.Create(CultureInfo.InvariantCulture,
                    $"The summary says {Shown(theirs)} for the {what}, but its seconds give {Shown(ours)}: the document was changed or is incomplete.")));
            }
        }

        static string Shown(double? value) => value is { } v ? v.ToString("#,0.######", CultureInfo.InvariantCulture) : "none";
    }

    /// <summary>The run's own times in order (queued, started, ended) and none later than this server's clock allows.</summary>
    public static void CheckTimes(RunExport document, DateTimeOffset now, List<FieldError> errors)
    {
        var latest = now + ClockSkewAllowance;
        void NotAfter(DateTimeOffset? earlier, string earlierField, DateTimeOffset? later, string laterField)
        {
            if (earlier is { } a && later is { } b && a > b)
            {
                errors.Add(new(laterField, string.Create(CultureInfo.InvariantCulture, $"{b:u} is before {earlierField} ({a:u}): a run's times go queued, started, ended.")));
            }
        }

        NotAfter(document.QueuedAt, nameof(RunExport.QueuedAt), document.StartedAt, nameof(RunExport.StartedAt));
        NotAfter(document.StartedAt ?? document.QueuedAt, document.StartedAt is null ? nameof(RunExport.QueuedAt) : nameof(RunExport.StartedAt), document.EndedAt, nameof(RunExport.EndedAt));
        // What the run measured happened between its start and its end (a second's grace for the clocks' reading).
        if (document is { StartedAt: { } started, EndedAt: { } ended, Summary: { } summary } && ended >= started
            && summary.Elapsed > ended - started + TimeSpan.FromSeconds(1))
        {
            errors.Add(new($"{nameof(RunExport.Summary)}.{nameof(RunSummary.Elapsed)}", string.Create(CultureInfo.InvariantCulture,
                $"The run measured {summary.Elapsed.TotalSeconds:N1} s, longer than from its start to its end ({(ended - started).TotalSeconds:N1} s): its times do not fit its figures.")));
        }

        foreach (var (time, name) in new[] { ((DateTimeOffset?)document.QueuedAt, nameof(RunExport.QueuedAt)), (document.StartedAt, nameof(RunExport.StartedAt)), (document.EndedAt, nameof(RunExport.EndedAt)) })
        {
            if (time > latest)
            {
                errors.Add(new(name, string.Create(CultureInfo.InvariantCulture, $"{time:u} is in the future (this server's clock says {now:u}): a run that ended cannot have started or ended later.")));
            }
        }
    }

    /// <summary>A figure the document may leave out; when given, finite and in range.</summary>
    private static void Optional(double? value, double min, double max, string unit, string field, List<FieldError> errors)
    {
        if (value is { } given)
        {
            Number(given, min, max, unit, field, errors);
        }
    }

    /// <summary>The longest reason a span or the worst second may give (the engine's are a line).</summary>
    private const int MaxReasonLength = 2_000;

    private static void CheckSpans(IReadOnlyList<ClientLimitedSpan>? spans, IReadOnlyList<RunExportSecond> seconds, IReadOnlyList<SecondSnapshot>? snapshots, string field, List<FieldError> errors)
    {
        if (spans is null)
        {
            errors.Add(new(field, "The client-limited spans are missing: an empty list when there are none."));
            return;
        }

        if (spans.Count > seconds.Count || spans.Any(s => s is null || s.Reason is null || s.Reason.Length > MaxReasonLength))
        {
            errors.Add(new(field, $"At most one span a second, each with a reason of at most {MaxReasonLength:N0} characters."));
            return;
        }

        var measured = spans.Count > 0 || seconds.Any(s => s.Health is not null);
        if (snapshots is null || !measured)
        {
            return;
        }

        var theirs = SummaryCalculator.ClientLimitedSpans(snapshots);
        if (!spans.SequenceEqual(theirs))
        {
            errors.Add(new(field, $"The summary says the client was the limit in {Describe(spans)} but the seconds say {Describe(theirs)}, with other words or bounds: "
                + "the document was changed or is incomplete."));
        }
    }

    private static string Describe(IReadOnlyList<ClientLimitedSpan> spans) =>
        spans.Count == 0 ? "no second" : string.Join(", ", spans.Take(5).Select(s => s.Seconds)) + (spans.Count > 5 ? $" and {spans.Count - 5:N0} more spans" : "");

    private static void Number(double value, double min, double max, string unit, string field, List<FieldError> errors)
    {
        if (!double.IsFinite(value))
        {
            errors.Add(new(field, $"Not a number ({value.ToString(CultureInfo.InvariantCulture)}): a measured figure is finite."));
        }
        else if (value < min || value > max)
        {
            var range = min == 0 && max == double.MaxValue ? "Cannot be negative"
                : string.Create(CultureInfo.InvariantCulture, $"Must be between {min:#,0.##} and {max:#,0.##} {unit}");
            errors.Add(new(field, string.Create(CultureInfo.InvariantCulture, $"{range}; this document says {value:G6}.")));
        }
    }

    private static void Count(long value, long max, string field, List<FieldError> errors)
    {
        if (value < 0 || value > max)
        {
            errors.Add(new(field, value < 0
                ? string.Create(CultureInfo.InvariantCulture, $"Cannot be negative; this document says {value:N0}.")
                : string.Create(CultureInfo.InvariantCulture, $"At most {max:N0}; this document says {value:N0}.")));
        }
    }
}
