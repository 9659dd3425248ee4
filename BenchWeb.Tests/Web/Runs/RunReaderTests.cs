using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Data;
using BenchWeb.Execution;
using BenchWeb.History;
using BenchWeb.Provenance;
using BenchWeb.Tests.Support;
using BenchWeb.Tests.Support.Components;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Time.Testing;

namespace BenchWeb.Tests.Web.Runs;

/// <summary>The read side of runs on a migrated SQLite file: what each read returns, and how many queries it costs.</summary>
[UnitTest]
public sealed class RunReaderTests
{
    private static readonly DateTimeOffset Start = new(2026, 11, 21, 9, 0, 0, TimeSpan.Zero);

    [Theory]
    [InlineData(3)]
    [InlineData(300)]
    public async Task WithSeconds_RunOfASweep_ReadsTheRowItsSweepsNameAndEverySecondInTwoQueries(int secondsSaved)
    {
        await using var context = new BenchWebComponentContext();
        var sweepId = await AddSweepAsync(context, "Concurrency ladder");
        var runId = await AddRunAsync(context, "step", RunStatus.Completed, Start, secondsSaved, sweepId: sweepId);
        context.Commands.Clear();

        var found = await context.Services.GetRequiredService<RunReader>().WithSecondsAsync(runId, CancellationToken.None);

        Assert.NotNull(found);
        Assert.Equal(runId, found.Run.Id);
        Assert.Equal("Concurrency ladder", found.SweepName);
        Assert.Equal(Enumerable.Range(0, secondsSaved), found.Run.Seconds.Select(s => s.Index));
        // However many seconds: the row with the sweep's name, then the seconds; never a query per second.
        Assert.Equal(2, context.Commands.Queries.Count);
        Assert.Equal(1, context.Commands.Reading("RunSeconds"));
        Assert.Equal(1, context.Commands.Reading("Sweeps"));
    }

    [Fact]
    public async Task WithSeconds_RunOnItsOwn_HasNoSweepName_AndNoRunIsNull()
    {
        await using var context = new BenchWebComponentContext();
        var runId = await AddRunAsync(context, "alone", RunStatus.Running, Start, secondsSaved: 0);
        var reader = context.Services.GetRequiredService<RunReader>();

        var found = await reader.WithSecondsAsync(runId, CancellationToken.None);

        Assert.NotNull(found);
        Assert.Null(found.SweepName);
        Assert.Empty(found.Run.Seconds);
        Assert.Null(await reader.WithSecondsAsync(runId + 1, CancellationToken.None));
    }

    [Fact]
    public async Task WithSecondCount_ReturnsTheRowAndItsNumberOfSecondsInOneQuery_OrNull()
    {
        await using var context = new BenchWebComponentContext();
        var runId = await AddRunAsync(context, "counted", RunStatus.Completed, Start, secondsSaved: 7);
        var reader = context.Services.GetRequiredService<RunReader>();
        context.Commands.Clear();

        var found = await reader.WithSecondCountAsync(runId, CancellationToken.None);

        Assert.NotNull(found);
        Assert.Equal("counted", found.Run.ProfileName);
        Assert.Equal(7, found.SecondsRecorded);
        Assert.Single(context.Commands.Queries);
        Assert.Null(await reader.WithSecondCountAsync(runId + 1, CancellationToken.None));
    }

    [Fact]
    public async Task List_StatusAndMeta_FilterAsTheRunHistoryDoes_NewestQueuedFirst()
    {
        await using var context = new BenchWebComponentContext();
        // Numbered first but queued last: the list goes by when a run was queued.
        var queuedLast = await AddRunAsync(context, "d", RunStatus.Completed, Start.AddHours(3), 0);
        var oldest = await AddRunAsync(context, "a", RunStatus.Completed, Start, 0, new RunMetadata([KeyValuePair.Create("commit", "1a2b")]));
        var failed = await AddRunAsync(context, "b", RunStatus.Failed, Start.AddHours(1), 0, new RunMetadata([KeyValuePair.Create("commit", "1a2b")]));
        var newest = await AddRunAsync(context, "c", RunStatus.Completed, Start.AddHours(2), 0, new RunMetadata([KeyValuePair.Create("commit", "9f9f")]));
        var reader = context.Services.GetRequiredService<RunReader>();

        var all = await reader.ListAsync(new RunHistoryFilter { Sort = RunHistorySort.Queued }, CancellationToken.None);
        var completed = await reader.ListAsync(new RunHistoryFilter { Sort = RunHistorySort.Queued, Status = RunStatus.Completed }, CancellationToken.None);
        var commit = await reader.ListAsync(new RunHistoryFilter { Sort = RunHistorySort.Queued, Meta = "commit=1a2b" }, CancellationToken.None);
        var both = await reader.ListAsync(new RunHistoryFilter { Sort = RunHistorySort.Queued, Meta = "commit=1a2b", Status = RunStatus.Completed }, CancellationToken.None);

        Assert.Equal([queuedLast, newest, failed, oldest], all.Runs.Select(r => r.Id));
        Assert.Equal(4, all.TotalCount);
        Assert.Equal([queuedLast, newest, oldest], completed.Runs.Select(r => r.Id));
        Assert.Equal([failed, oldest], commit.Runs.Select(r => r.Id));
        Assert.Equal([oldest], both.Runs.Select(r => r.Id));
        // The same filter through the history's own query finds the same runs.
        var history = await reader.HistoryAsync(new RunHistoryFilter { Sort = RunHistorySort.Queued, Meta = "commit=1a2b" }, CancellationToken.None);
        Assert.Equal(commit.Runs.Select(r => r.Id), history.Rows.Select(r => r.Id));
    }

    [Fact]
    public async Task List_PagePastTheEnd_IsEmptyWithTheTotal_WhereTheHistoryShowsItsLastPage()
    {
        await using var context = new BenchWebComponentContext();
        for (var i = 0; i < 5; i++)
        {
            await AddRunAsync(context, $"run {i}", RunStatus.Completed, Start.AddMinutes(i), 0);
        }

        var reader = context.Services.GetRequiredService<RunReader>();

        var second = await reader.ListAsync(new RunHistoryFilter { Sort = RunHistorySort.Queued, Page = 2, PageSize = 2 }, CancellationToken.None);
        var past = await reader.ListAsync(new RunHistoryFilter { Sort = RunHistorySort.Queued, Page = 4, PageSize = 2 }, CancellationToken.None);
        var far = await reader.ListAsync(new RunHistoryFilter { Sort = RunHistorySort.Queued, Page = int.MaxValue, PageSize = 200 }, CancellationToken.None);
        var history = await reader.HistoryAsync(new RunHistoryFilter { Sort = RunHistorySort.Queued, Page = 4, PageSize = 2 }, CancellationToken.None);

        Assert.Equal(["run 2", "run 1"], second.Runs.Select(r => r.ProfileName));
        Assert.Empty(past.Runs);
        Assert.Equal(5, past.TotalCount);
        Assert.Empty(far.Runs);
        Assert.Equal(["run 0"], history.Rows.Select(r => r.ProfileName));
    }

    [Fact]
    public async Task Diagnostics_ARunsSlowRequests_OfOneSecondWhenAsked_NullForNoRun()
    {
        await using var context = new BenchWebComponentContext();
        var runId = await AddRunAsync(context, "slow", RunStatus.Completed, Start, secondsSaved: 3);
        var quiet = await AddRunAsync(context, "quiet", RunStatus.Completed, Start, secondsSaved: 3);
        await using (var db = await context.Databases.CreateDbContextAsync())
        {
            db.RunDiagnostics.AddRange(
                new RunDiagnosticEntity { RunId = runId, Number = 0, Second = 0, LatencyMs = 40, StatusCode = 201, Attempts = 1, Target = "t", Summary = "first", Text = "a" },
                new RunDiagnosticEntity { RunId = runId, Number = 1, Second = 2, LatencyMs = 90, StatusCode = 201, Attempts = 1, Target = "t", Summary = "third", Text = "b" });
            await db.SaveChangesAsync();
        }

        var reader = context.Services.GetRequiredService<RunReader>();

        Assert.Equal(["first", "third"], (await reader.DiagnosticsAsync(runId, null, CancellationToken.None))!.Select(r => r.Summary));
        Assert.Equal(["third"], (await reader.DiagnosticsAsync(runId, 2, CancellationToken.None))!.Select(r => r.Summary));
        Assert.Empty((await reader.DiagnosticsAsync(quiet, null, CancellationToken.None))!);
        Assert.Null(await reader.DiagnosticsAsync(quiet + 1, null, CancellationToken.None));
    }

    [Fact]
    public async Task DiagnosticsApi_ASecondPastTheRunsLast_Is404NamingItsSeconds_AQuietSecondWithinIsAnEmptyList()
    {
        await using var context = new BenchWebComponentContext();
        var runId = await AddRunAsync(context, "quiet", RunStatus.Completed, Start, secondsSaved: 3);
        var none = await AddRunAsync(context, "queued", RunStatus.Queued, Start, secondsSaved: 0);
        var reader = context.Services.GetRequiredService<RunReader>();

        var past = await BenchWeb.Apis.RunsApi.DiagnosticsAsync(runId, "999999", reader, CancellationToken.None);
        var notYet = await BenchWeb.Apis.RunsApi.DiagnosticsAsync(none, "0", reader, CancellationToken.None);
        var within = await BenchWeb.Apis.RunsApi.DiagnosticsAsync(runId, "2", reader, CancellationToken.None);

        var problem = Assert.IsType<Microsoft.AspNetCore.Http.HttpResults.ProblemHttpResult>(past.Result);
        Assert.Equal(404, problem.StatusCode);
        Assert.Equal($"Run {runId} has no second 999999: its seconds are 0–2.", problem.ProblemDetails.Detail);
        Assert.Equal($"Run {none} has no second 0: it has measured no seconds yet.", Assert.IsType<Microsoft.AspNetCore.Http.HttpResults.ProblemHttpResult>(notYet.Result).ProblemDetails.Detail);
        Assert.Empty(Assert.IsType<Microsoft.AspNetCore.Http.HttpResults.Ok<BenchWeb.Apis.RunDiagnosticsResponse>>(within.Result).Value!.Entries);
    }

    [Fact]
    public async Task Export_ARun_HasEverySecondAndTheReadersTime_NullForNoRun()
    {
        await using var context = new BenchWebComponentContext();
        var runId = await SeededRuns.AddAsync(context.Databases, SeededRuns.Plan(TargetKind.Simulated, "Exported"), SeededRuns.Seconds(4, 1_000, 6));
        var now = new DateTimeOffset(2026, 11, 27, 3, 0, 0, TimeSpan.Zero);
        var reader = new RunReader(context.Databases, new FakeTimeProvider(now));

        var export = await reader.ExportAsync(runId, CancellationToken.None);

        Assert.NotNull(export);
        Assert.Equal(runId, export.RunId);
        Assert.Equal("Exported", export.ProfileName);
        Assert.Equal(now, export.ExportedAt);
        Assert.Equal([0, 1, 2, 3], export.Seconds.Select(s => s.Index));
        Assert.NotNull(export.Summary);
        Assert.Null(await reader.ExportAsync(runId + 1, CancellationToken.None));
    }

    [Fact]
    public async Task Agents_RunOnOneAgent_IsEmpty_NoRunIsNull()
    {
        await using var context = new BenchWebComponentContext();
        var runId = await AddRunAsync(context, "one agent", RunStatus.Completed, Start, secondsSaved: 1);
        var reader = context.Services.GetRequiredService<RunReader>();

        Assert.Empty((await reader.AgentsAsync(runId, CancellationToken.None))!);
        Assert.Null(await reader.AgentsAsync(runId + 1, CancellationToken.None));
    }

    private static async Task<long> AddSweepAsync(BenchWebComponentContext context, string name)
    {
        await using var db = await context.Databases.CreateDbContextAsync();
        var sweep = new SweepEntity { Name = name, PlanJson = "{}", SweepJson = "{}", Status = RunStatus.Completed, QueuedAt = Start };
        db.Sweeps.Add(sweep);
        await db.SaveChangesAsync();
        return sweep.Id;
    }

    private static async Task<long> AddRunAsync(
        BenchWebComponentContext context, string name, RunStatus status, DateTimeOffset queuedAt, int secondsSaved, RunMetadata? metadata = null, long? sweepId = null)
    {
        await using var db = await context.Databases.CreateDbContextAsync();
        var run = new RunEntity
        {
            ProfileName = name,
            PlanJson = new RunPlan { Name = name }.ToJson(),
            Status = status,
            QueuedAt = queuedAt,
            MetadataJson = metadata?.ToStored(),
            SweepId = sweepId,
            SweepStep = sweepId is null ? null : 0,
        };
        db.Runs.Add(run);
        await db.SaveChangesAsync();
        for (var i = 0; i < secondsSaved; i++)
        {
            db.RunSeconds.Add(new RunSecondEntity { RunId = run.Id, Index = i, ElapsedSeconds = i + 1, DurationSeconds = 1, Ok = 100, OkRequests = 100, ClosedAt = queuedAt.AddSeconds(i + 1) });
        }

        await db.SaveChangesAsync();
        return run.Id;
    }
}
