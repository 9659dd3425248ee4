using BenchEngine.Workloads;

namespace BenchEngine.Running;

/// <summary>
/// Hands out the next request's documents to whichever worker asks, up to the plan's document limit.
/// For batches of a target whose batches share a partition key it groups documents by partition key, holding at most
/// <see cref="MaxOpenGroups"/> partial groups, so memory stays bounded whatever the stream's length; for any other
/// target (a Redis pipeline) a batch is the next documents in order.
/// </summary>
/// <param name="source">The workload's documents.</param>
/// <param name="batchSize">The most documents a request carries.</param>
/// <param name="limit">The most documents handed out; null for no limit.</param>
/// <param name="groupByPartitionKey">Whether a batch must share a partition key (<see cref="Targets.TargetModule.BatchesSharePartitionKey"/>).</param>
internal sealed class WorkSource(IDocumentSource source, int batchSize, long? limit, bool groupByPartitionKey = true)
{
    /// <summary>Partial batches kept while grouping; past this the fullest is sent as it is.</summary>
    public const int MaxOpenGroups = 1_000;

    private readonly Lock _gate = new();
    private readonly Dictionary<string, List<Document>> _groups = new(StringComparer.Ordinal);
    private long _taken;
    private bool _exhausted;

    /// <summary>Documents handed out so far.</summary>
    public long Taken
    {
        get
        {
            lock (_gate)
            {
                return _taken;
            }
        }
    }

    public bool TryTake(out IReadOnlyList<Document> documents)
    {
        lock (_gate)
        {
            documents = batchSize == 1 ? TakeOne() : TakeBatch();
            _taken += documents.Count;
            return documents.Count > 0;
        }
    }

    private long Remaining => limit is { } l ? l - _taken : long.MaxValue;

    private IReadOnlyList<Document> TakeOne()
    {
        if (Remaining <= 0 || _exhausted || !source.TryNext(out var document))
        {
            _exhausted = true;
            return [];
        }

        return [document];
    }

    private List<Document> TakeBatch()
    {
        var remaining = Remaining;
        var buffered = _groups.Values.Sum(g => (long)g.Count);
        while (!_exhausted && buffered < remaining)
        {
            if (!source.TryNext(out var document))
            {
                _exhausted = true;
                break;
            }

            var key = groupByPartitionKey ? document.PartitionKey : "";
            if (!_groups.TryGetValue(key, out var group))
            {
                group = new List<Document>(batchSize);
                _groups[key] = group;
            }

            group.Add(document);
            buffered++;
            if (group.Count == batchSize)
            {
                _groups.Remove(key);
                return Trim(group, remaining);
            }

            if (_groups.Count > MaxOpenGroups)
            {
                break;
            }
        }

        // Stream's end, the document limit, or too many open groups: send the fullest partial group.
        if (_groups.Count == 0)
        {
            return [];
        }

        var fullest = _groups.MaxBy(g => g.Value.Count);
        _groups.Remove(fullest.Key);
        return Trim(fullest.Value, remaining);
    }

    private static List<Document> Trim(List<Document> group, long remaining)
    {
        if (group.Count > remaining)
        {
            group.RemoveRange((int)remaining, group.Count - (int)remaining);
        }

        return group;
    }
}
