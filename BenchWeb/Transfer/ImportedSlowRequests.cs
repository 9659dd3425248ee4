using System.Globalization;
using BenchEngine.Diagnostics;
using BenchEngine.Running;

namespace BenchWeb.Transfer;

/// <summary>The rules an imported document's slow requests must keep (<see cref="RunTransfer.Validate"/>).</summary>
internal static class ImportedSlowRequests
{
    /// <summary>The most entries a document may bring: every shard's bound.</summary>
    public const int MaxImported = DiagnosticsOptions.MaxEntries * BenchEngine.Workloads.WorkloadShard.MaxCount;

    /// <summary>Adds to <paramref name="errors"/> what is wrong with an imported document's slow requests, each naming its
    /// entry: bounded texts in plain text, a second of the run, a latency, status and attempt count in range.</summary>
    public static void Check(IReadOnlyList<SlowRequest>? requests, int seconds, List<FieldError> errors)
    {
        ArgumentNullException.ThrowIfNull(errors);
        if (requests is null)
        {
            return;
        }

        const string field = nameof(RunExport.SlowRequests);
        if (requests.Count > MaxImported)
        {
            errors.Add(new(field, string.Create(CultureInfo.InvariantCulture, $"At most {MaxImported:N0} entries; this document has {requests.Count:N0}.")));
            return;
        }

        var found = 0;
        for (var i = 0; i < requests.Count && found < RunExportRanges.MaxErrors; i++)
        {
            var at = $"{field}[{i}]";
            var problem = requests[i] switch
            {
                null => "An entry is null.",
                { Second: var s } when s < 0 || s >= Math.Max(seconds, 1) => $"Second {s} is not one of the run's {seconds} seconds.",
                { LatencyMs: var ms } when !(ms >= 0 && ms <= DiagnosticsOptions.MaxThresholdMs * 24) => "The latency must be a number of milliseconds from 0 to a day.",
                { StatusCode: < 0 or > 999 } => "The status must be from 0 to 999.",
                { Attempts: < 1 or > 101 } => "The attempts must be from 1 to 101.",
                { Outcome: var outcome } when !Enum.IsDefined(outcome) => "The outcome is not Ok, Throttled or Error.",
                { Text.Length: > DiagnosticsOptions.MaxTextLength } => $"The text is longer than {DiagnosticsOptions.MaxTextLength:N0} characters.",
                { Summary.Length: > SlowRequest.MaxSummaryLength } => $"The summary is longer than {SlowRequest.MaxSummaryLength} characters.",
                { Target.Length: > SlowRequest.MaxTargetLength } => $"The target is longer than {SlowRequest.MaxTargetLength} characters.",
                // An SDK's texts, not typed: a credential in them is redacted when they are kept, as this installation's own are.
                var entry => PlainText.Check(entry.Summary, refuseCredentials: false) ?? PlainText.Check(entry.Target, refuseCredentials: false)
                    ?? PlainText.Check(entry.Text, allowLineBreaks: true, refuseCredentials: false),
            };
            if (problem is not null)
            {
                errors.Add(new(at, problem));
                found++;
            }
        }
    }
}
