using BenchEngine.Diagnostics;
using BenchEngine.Running;
using BenchWeb.Data;
using Microsoft.EntityFrameworkCore;
using BenchWeb.Compare;
using BenchWeb.Execution;
using BenchWeb.Fleet;
using BenchWeb.Transfer;

namespace BenchWeb.History;

/// <summary>The read side of runs for the pages, the HTTP API, the exports and the live feed: lists, a run's row (with its
/// seconds, or their count, when asked), the seconds of a range, its slow requests, its agents and its export. Pages and
/// APIs ask this rather than open the database.</summary>
public sealed class RunReader(IDbContextFactory<BenchDbContext> databases, TimeProvider time)
{
    /// <summary>The run's row, or null when there is no such run.</summary>
    public async Task<RunEntity?> FindAsync(long runId, CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        return await db.Runs.AsNoTracking().SingleOrDefaultAsync(r => r.Id == runId, cancellationToken);
    }

    /// <summary>The run's row with every second saved so far, in order (<see cref="RunEntity.Seconds"/>), and the name of
    /// the sweep it is a step of; null when there is no such run. The run page's one read when it loads.</summary>
    /// <remarks>Two commands however many seconds the run has: the row with the sweep's name, then the seconds. One joined
    /// command would repeat the row (its plan, summary and environment, kilobytes of text) beside each of an hour-long
    /// run's 3,600 seconds, which PostgreSQL in shared mode sends over the network every time.</remarks>
    public async Task<RunWithSeconds?> WithSecondsAsync(long runId, CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        var found = await db.Runs.AsNoTracking()
            .Where(r => r.Id == runId)
            .Select(r => new
            {
                Run = r,
                SweepName = r.SweepId == null ? null : db.Sweeps.Where(s => s.Id == r.SweepId).Select(s => s.Name).FirstOrDefault(),
                Seconds = r.Seconds.OrderBy(s => s.Index).ToList(),
            })
            .AsSplitQuery()
            .SingleOrDefaultAsync(cancellationToken);
        if (found is null)
        {
            return null;
        }

        found.Run.Seconds.AddRange(found.Seconds);
        return new RunWithSeconds(found.Run, found.SweepName);
    }

    /// <summary>The run's row and how many seconds it has saved, in one command; null when there is no such run.</summary>
    public async Task<RunWithSecondCount?> WithSecondCountAsync(long runId, CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        return await db.Runs.AsNoTracking()
            .Where(r => r.Id == runId)
            .Select(r => new RunWithSecondCount(r, db.RunSeconds.Count(s => s.RunId == r.Id)))
            .SingleOrDefaultAsync(cancellationToken);
    }

    /// <summary>A page of whole runs and how many match (<see cref="RunHistoryQuery.ListAsync"/>): the run history's filters and
    /// sort, for the HTTP API.</summary>
    public async Task<RunListPage> ListAsync(RunHistoryFilter filter, CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        return await RunHistoryQuery.ListAsync(db, filter, null, cancellationToken);
    }

    /// <summary>The run's seconds after <paramref name="afterIndex"/> (-1: from the first) and before
    /// <paramref name="beforeIndex"/> (null: to the last saved), in order, at most <paramref name="take"/>.</summary>
    public async Task<IReadOnlyList<RunSecondEntity>> SecondsAsync(long runId, int afterIndex, int? beforeIndex, int take, CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        var seconds = db.RunSeconds.AsNoTracking().Where(s => s.RunId == runId && s.Index > afterIndex);
        if (beforeIndex is { } before)
        {
            seconds = seconds.Where(s => s.Index < before);
        }

        return await seconds.OrderBy(s => s.Index).Take(take).ToListAsync(cancellationToken);
    }

    /// <summary>The run's slowest requests with their diagnostics, as saved, in the order of their seconds
    /// (<see cref="RunDiagnostics"/>).</summary>
    public async Task<List<RunDiagnosticEntity>> SlowRequestsAsync(long runId, CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        return await RunDiagnostics.EntriesOfRunAsync(db, runId, null, cancellationToken);
    }

    /// <summary>The run's slow requests (of second <paramref name="second"/> only, when given), as the API shows them
    /// (<see cref="RunDiagnostics.OfRunAsync"/>); null when there is no such run.</summary>
    public async Task<List<SlowRequest>?> DiagnosticsAsync(long runId, int? second, CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        return await db.Runs.AnyAsync(r => r.Id == runId, cancellationToken)
            ? await RunDiagnostics.OfRunAsync(db, runId, second, cancellationToken)
            : null;
    }

    /// <summary>The run's last second saved (counted from 0); null when it has saved none, or there is no such run.</summary>
    public async Task<int?> LastSecondAsync(long runId, CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        return await db.RunSeconds.Where(s => s.RunId == runId).MaxAsync(s => (int?)s.Index, cancellationToken);
    }

    /// <summary>The run as an export document (<see cref="RunTransfer.ExportOf"/>): its row, every second and its slow
    /// requests; null when there is no such run.</summary>
    public async Task<RunExport?> ExportAsync(long runId, CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        if (await db.Runs.AsNoTracking().SingleOrDefaultAsync(r => r.Id == runId, cancellationToken) is not { } run)
        {
            return null;
        }

        var seconds = await db.RunSeconds.AsNoTracking().Where(s => s.RunId == runId).OrderBy(s => s.Index).ToListAsync(cancellationToken);
        var slowRequests = await RunDiagnostics.OfRunAsync(db, runId, null, cancellationToken);
        return RunTransfer.ExportOf(run, seconds, slowRequests, time.GetUtcNow());
    }

    /// <summary>A run spread over agents: each agent's part (<see cref="RunAgentBreakdown"/>); empty for a run on one agent,
    /// null when there is no such run.</summary>
    public async Task<IReadOnlyList<RunAgentRow>?> AgentsAsync(long runId, CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        var rows = await RunAgentBreakdown.ForRunAsync(db, runId, cancellationToken);
        // Only a run without shards needs to be told from no run: the page reads this on each of an agent's seconds.
        return rows.Count > 0 || await db.Runs.AnyAsync(r => r.Id == runId, cancellationToken) ? rows : null;
    }

    /// <summary>Where a queued run stands: its place among the runs and sweeps queued before it, and what executes now, which
    /// it waits for (at most <paramref name="listed"/> runs named). A sweep holds a worker for all its steps, between them
    /// too.</summary>
    public async Task<RunQueuePlace> QueuePlaceAsync(long runId, int listed, CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        // A run deleted meanwhile is behind nothing.
        var queuedAt = await db.Runs.Where(r => r.Id == runId).Select(r => (DateTimeOffset?)r.QueuedAt).FirstOrDefaultAsync(cancellationToken) ?? DateTimeOffset.MinValue;
        var runsAhead = await db.Runs.CountAsync(r => r.Status == RunStatus.Queued && r.Id < runId && r.SweepId == null, cancellationToken);
        var sweepsAhead = await db.Sweeps.CountAsync(s => s.Status == RunStatus.Queued && s.QueuedAt < queuedAt, cancellationToken);
        var running = await db.Runs.AsNoTracking().Where(r => r.Status == RunStatus.Running).OrderBy(r => r.Id).Take(listed + 1)
            .Select(r => new RunQueueAhead(r.Id, r.ProfileName)).ToListAsync(cancellationToken);
        var sweeps = await db.Sweeps.AsNoTracking().Where(s => s.Status == RunStatus.Running).OrderBy(s => s.Id).Select(s => s.Id).ToListAsync(cancellationToken);
        return new RunQueuePlace(runsAhead + sweepsAhead + 1, [.. running.Take(listed)], running.Count > listed, sweeps);
    }

    /// <summary>The newest runs, at most <paramref name="count"/>.</summary>
    public async Task<IReadOnlyList<RunEntity>> RecentAsync(int count, CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        return await db.Runs.AsNoTracking().OrderByDescending(r => r.Id).Take(count).ToListAsync(cancellationToken);
    }

    /// <summary>A page of the run history (<see cref="RunHistoryQuery"/>), its dates in the server's time zone.</summary>
    public async Task<RunHistoryPage> HistoryAsync(RunHistoryFilter filter, CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        return await RunHistoryQuery.ExecuteAsync(db, filter, null, cancellationToken);
    }

    /// <summary>The runs queued or running whose plan mentions <paramref name="text"/> (<see cref="PendingRunPlansReader"/>).</summary>
    public async Task<IReadOnlyList<PlanHolder>> PendingPlansMentioningAsync(string text, CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        return await db.Runs.AsNoTracking()
            .Where(r => (r.Status == RunStatus.Queued || r.Status == RunStatus.Running) && r.PlanJson.Contains(text))
            .Select(r => new PlanHolder(r.Id, r.ProfileName, r.PlanJson)).ToListAsync(cancellationToken);
    }

    /// <summary>How the run ended, or null when there is no such run (<see cref="RunOutcomeReader"/>).</summary>
    public async Task<RunOutcome?> OutcomeAsync(long runId, CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        return await db.Runs.AsNoTracking().Where(r => r.Id == runId).Select(r => new RunOutcome(r.Status, r.AverageThroughput)).SingleOrDefaultAsync(cancellationToken);
    }

    /// <summary>How many runs each agent executes on its own now (<see cref="RunningRunsPerAgentReader"/>).</summary>
    public async Task<IReadOnlyDictionary<string, int>> RunningPerAgentAsync(IReadOnlyCollection<string> agentIds, CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        return await db.Runs.Where(r => r.AgentId != null && agentIds.Contains(r.AgentId) && r.Status == RunStatus.Running)
            .GroupBy(r => r.AgentId!).Select(g => new { Agent = g.Key, Count = g.Count() })
            .ToDictionaryAsync(g => g.Agent, g => g.Count, StringComparer.Ordinal, cancellationToken);
    }

    /// <summary>For each profile with a completed run, its latest one's id and average throughput: the rate its next run
    /// can expect, to say how long that will take.</summary>
    public async Task<IReadOnlyDictionary<long, (long RunId, double PerSecond)>> LastRatesByProfileAsync(CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        var completed = await db.Runs.AsNoTracking()
            .Where(r => r.ProfileId != null && r.Status == RunStatus.Completed && r.AverageThroughput > 0)
            .Select(r => new { r.Id, ProfileId = r.ProfileId!.Value, r.AverageThroughput })
            .ToListAsync(cancellationToken);
        return completed.GroupBy(r => r.ProfileId).ToDictionary(g => g.Key, g => g.MaxBy(r => r.Id) is { } last ? (last.Id, last.AverageThroughput ?? 0) : default);
    }

    /// <summary>The runs of a comparison (<see cref="RunComparison"/>), with their seconds when asked.</summary>
    public async Task<RunComparison> CompareAsync(IReadOnlyList<long> ids, bool includeSeconds, CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        return await RunComparison.LoadAsync(db, ids, includeSeconds, cancellationToken);
    }
}

/// <summary>A queued run's place: 1 when it is next; the runs executing now (the first of them, and whether there are
/// more), and the sweeps executing now (each holds a worker between its steps too).</summary>
public sealed record RunQueuePlace(int Position, IReadOnlyList<RunQueueAhead> Running, bool MoreRunning, IReadOnlyList<long> Sweeps);

/// <summary>A run a queued one waits for.</summary>
public sealed record RunQueueAhead(long Id, string Name);
