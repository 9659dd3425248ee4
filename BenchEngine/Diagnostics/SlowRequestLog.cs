using System.Globalization;
using BenchEngine.Running;
using BenchEngine.Targets;

namespace BenchEngine.Diagnostics;

/// <summary>
/// A run's slow requests, described as their seconds close (off the load's path: the run's hand-off to its observer), each
/// text without credentials and within its bound, and the run within its bounds: at most
/// <see cref="DiagnosticsOptions.MaxEntries"/> entries and <see cref="DiagnosticsOptions.MaxTotalLength"/> characters, the
/// slowest kept when more come. Used by one task at a time.
/// </summary>
/// <param name="target">Describes each request from what its outcome kept.</param>
/// <param name="secrets">The values of the secrets the run read, which no text may hold.</param>
internal sealed class SlowRequestLog(IInsertTarget target, Func<IEnumerable<string>> secrets)
{
    private readonly SortedSet<(long Ticks, int Number)> _byLatency = [];
    private readonly Dictionary<int, SlowRequest> _kept = [];
    private long _length;
    private int _next;

    /// <summary>Requests that were among their second's slowest but not kept, to stay within the run's bounds.</summary>
    public int NotKept { get; private set; }

    /// <summary>The entries kept, in the order of their seconds, slowest first within a second.</summary>
    public IReadOnlyList<SlowRequest> Entries => [.. _kept.OrderBy(e => e.Value.Second).ThenByDescending(e => e.Value.LatencyMs).ThenBy(e => e.Key).Select(e => e.Value)];

    /// <summary>Describes the slow requests of second <paramref name="second"/> and keeps those that fit.</summary>
    public SlowRequestChange Add(int second, IReadOnlyList<SlowRequestCandidate> candidates)
    {
        var added = new List<NumberedSlowRequest>();
        var removed = new List<int>();
        foreach (var candidate in candidates)
        {
            // One that would be the fastest of a full run is not described at all.
            if (_kept.Count >= DiagnosticsOptions.MaxEntries && _byLatency.Min.Ticks >= candidate.LatencyTicks)
            {
                NotKept++;
                continue;
            }

            var entry = Describe(second, candidate);
            var length = LengthOf(entry);
            while (_kept.Count > 0 && (_kept.Count >= DiagnosticsOptions.MaxEntries || _length + length > DiagnosticsOptions.MaxTotalLength)
                && _byLatency.Min.Ticks < candidate.LatencyTicks)
            {
                var fastest = _byLatency.Min;
                _byLatency.Remove(fastest);
                _length -= LengthOf(_kept[fastest.Number]);
                _kept.Remove(fastest.Number);
                NotKept++;
                if (added.RemoveAll(a => a.Number == fastest.Number) == 0)
                {
                    removed.Add(fastest.Number);
                }
            }

            if (_kept.Count >= DiagnosticsOptions.MaxEntries || _length + length > DiagnosticsOptions.MaxTotalLength)
            {
                NotKept++;
                continue;
            }

            var number = _next++;
            _kept[number] = entry;
            _byLatency.Add((candidate.LatencyTicks, number));
            _length += length;
            added.Add(new NumberedSlowRequest(number, entry));
        }

        return new SlowRequestChange(added, removed);
    }

    private static long LengthOf(SlowRequest entry) => entry.Text.Length + entry.Summary.Length;

    private SlowRequest Describe(int second, in SlowRequestCandidate candidate)
    {
        var facts = candidate.Facts;
        RequestDescription description;
        try
        {
            description = target.DescribeRequest(facts);
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            // A description that fails (an SDK object read after its time) still leaves what the engine measured.
            description = RequestDescription.Plain(facts, $"The target could not describe this request ({ex.GetType().Name}).");
        }

        var values = secrets().ToList();
        // Shown on pages, written to files and imported elsewhere: no control or direction character stays as it is.
        var text = PlainText.Escape(CredentialRedaction.Redact(description.Text ?? "", values), keepLineBreaks: true);
        var truncated = text.Length > DiagnosticsOptions.MaxTextLength;
        if (truncated)
        {
            var marker = string.Create(CultureInfo.InvariantCulture,
                $"\n[truncated: the text was {text.Length:N0} characters; the first {DiagnosticsOptions.MaxTextLength:N0} are kept, this line included]");
            text = string.Concat(text.AsSpan(0, DiagnosticsOptions.MaxTextLength - marker.Length), marker);
        }

        return new SlowRequest
        {
            Second = second,
            LatencyMs = facts.Latency.TotalMilliseconds,
            StatusCode = candidate.Outcome.StatusCode,
            Outcome = candidate.Outcome.Kind,
            Attempts = candidate.Attempts,
            Target = Bound(PlainText.Escape(target.Description), SlowRequest.MaxTargetLength),
            Summary = Bound(PlainText.Escape(CredentialRedaction.Redact(OneLine(description.Summary ?? ""), values)), SlowRequest.MaxSummaryLength),
            Text = text,
            Truncated = truncated,
        };
    }

    private static string OneLine(string text) => text.ReplaceLineEndings(" ");

    private static string Bound(string text, int max) => text.Length <= max ? text : string.Concat(text.AsSpan(0, max - 1), "…");
}
