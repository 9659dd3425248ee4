using BenchWeb.Data;

namespace BenchWeb.Live;

/// <summary>A watcher's copy of one run's seconds, kept whole as the feed's events arrive: a second past one it never got
/// (a message lost between instances, a watcher that fell behind) brings the missing ones from the database first, and a
/// status change brings every second saved after the last it has (a run's last seconds can be saved as it ends without
/// a message: the agents' seconds merged at the end). Each second is handed on once.</summary>
public sealed class RunFollower
{
    /// <summary>The most seconds read at once; a watcher further behind reads again from the last one it got.</summary>
    public const int ReadAtOnce = 600;

    private readonly SortedDictionary<int, RunSecondEntity> _seconds = [];
    private readonly SavedSecondsReader _read;
    private int _lastIndex = -1;

    /// <param name="read">Where missing seconds come from (the run's read side).</param>
    /// <param name="runId">The run followed.</param>
    /// <param name="loaded">The seconds the watcher read with the run.</param>
    public RunFollower(SavedSecondsReader read, long runId, IEnumerable<RunSecondEntity> loaded)
    {
        ArgumentNullException.ThrowIfNull(loaded);
        _read = read;
        RunId = runId;
        Keep(loaded, []);
    }

    public long RunId { get; }

    /// <summary>Every second so far, in order.</summary>
    public IReadOnlyCollection<RunSecondEntity> Seconds => _seconds.Values;

    /// <summary>The highest index held, or -1.</summary>
    public int LastIndex => _lastIndex;

    /// <summary>A second from the feed: the seconds new to this watcher it leads to, in order (none when it had it), the
    /// ones before it that were missing included.</summary>
    public async Task<IReadOnlyList<RunSecondEntity>> AddAsync(RunSecondEntity second, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(second);
        if (_seconds.ContainsKey(second.Index))
        {
            return [];
        }

        var fresh = new List<RunSecondEntity>();
        for (var missing = FirstMissing(); missing < second.Index;)
        {
            var read = await _read(RunId, missing - 1, second.Index, ReadAtOnce, cancellationToken);
            Keep(read, fresh);
            var next = FirstMissing();
            // The database has none of them (yet): the next second or status change tries again.
            if (read.Count == 0 || next == missing)
            {
                break;
            }

            missing = next;
        }

        Keep([second], fresh);
        return Ordered(fresh);
    }

    /// <summary>Every saved second this watcher lacks (a gap, or after its last), in order.</summary>
    public async Task<IReadOnlyList<RunSecondEntity>> CatchUpAsync(CancellationToken cancellationToken)
    {
        var fresh = new List<RunSecondEntity>();
        while (true)
        {
            var missing = FirstMissing();
            var read = await _read(RunId, missing - 1, null, ReadAtOnce, cancellationToken);
            var before = fresh.Count;
            Keep(read, fresh);
            if (read.Count < ReadAtOnce || (fresh.Count == before && FirstMissing() == missing))
            {
                return Ordered(fresh);
            }
        }
    }

    private void Keep(IEnumerable<RunSecondEntity> seconds, List<RunSecondEntity> fresh)
    {
        foreach (var second in seconds)
        {
            if (_seconds.TryAdd(second.Index, second))
            {
                fresh.Add(second);
                _lastIndex = Math.Max(_lastIndex, second.Index);
            }
        }
    }

    // The first index up to the last held that is missing; past the last when none is.
    private int FirstMissing()
    {
        if (_seconds.Count == LastIndex + 1)
        {
            return LastIndex + 1;
        }

        var expected = 0;
        foreach (var index in _seconds.Keys)
        {
            if (index != expected)
            {
                return expected;
            }

            expected++;
        }

        return expected;
    }

    private static List<RunSecondEntity> Ordered(List<RunSecondEntity> fresh)
    {
        fresh.Sort((a, b) => a.Index.CompareTo(b.Index));
        return fresh;
    }
}
