using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Data;
using BenchWeb.History;
using BenchWeb.Tests.Support;
using BenchWeb.Tests.Support.Components;

namespace BenchWeb.Tests.Web.Runs;

[UnitTest]
public sealed class RunHistoryQueryTests
{
    // Five runs named by key; each test gets a fresh database with them.
    private sealed class Seeded : IAsyncDisposable
    {
        public BenchWebComponentContext Context { get; } = new();

        public Dictionary<string, long> Ids { get; } = [];

        public ValueTask DisposeAsync() => Context.DisposeAsync();
    }

    private static async Task<Seeded> SeedAsync()
    {
        var seeded = new Seeded();
        await AddAsync("gateway-run", "Gateway 10 tasks", TargetKind.CosmosSql, RunStatus.Completed, new(2026, 11, 1, 10, 0, 0, TimeSpan.Zero), 600, 50, 0.01, ",gateway,2 cores,", "Slow warm-up on the App Service");
        await AddAsync("direct-run", "Direct 10 tasks", TargetKind.CosmosSql, RunStatus.Completed, new(2026, 11, 2, 23, 59, 59, TimeSpan.Zero), 900, 30, 0.02, ",direct,", null);
        await AddAsync("table-run", "Table batches", TargetKind.TableStorage, RunStatus.Failed, new(2026, 11, 3, 0, 0, 0, TimeSpan.Zero), null, null, null, ",gateways,", "50% done_ then failed");
        await AddAsync("running-run", "Quick start (simulated)", TargetKind.Simulated, RunStatus.Running, new(2026, 11, 4, 8, 0, 0, TimeSpan.Zero), null, null, null, null, null);
        await AddAsync("simulated-run", "gateway profile", TargetKind.Simulated, RunStatus.Completed, new(2026, 11, 5, 8, 0, 0, TimeSpan.Zero), 1200, 10, 0, ",2 cores,", "");
        return seeded;

        Task AddAsync(string key, string profile, TargetKind kind, RunStatus status, DateTimeOffset queuedAt, double? throughput, double? p99, double? throttled, string? tags, string? notes) =>
            AddRunAsync(seeded, key, profile, kind, status, queuedAt, throughput, p99, throttled, tags, notes);
    }

    [Fact]
    public async Task Query_NoFilter_ReturnsEveryRunNewestFirst()
    {
        await using var seeded = await SeedAsync();
        var page = await QueryAsync(seeded, new RunHistoryFilter());

        Assert.Equal(["simulated-run", "running-run", "table-run", "direct-run", "gateway-run"], Names(seeded, page));
        Assert.Equal(5, page.TotalCount);
        Assert.Equal(1, page.PageCount);
        var gateway = page.Rows.Single(r => r.Id == seeded.Ids["gateway-run"]);
        Assert.True(gateway.HasNotes);
        Assert.Equal(600, gateway.AverageThroughput);
        Assert.False(page.Rows.Single(r => r.Id == seeded.Ids["simulated-run"]).HasNotes);
    }

    [Fact]
    public async Task Query_ProfileText_MatchesPartOfTheNameIgnoringCase()
    {
        await using var seeded = await SeedAsync();
        var page = await QueryAsync(seeded, new RunHistoryFilter { Profile = "GATEWAY" });

        Assert.Equal(["simulated-run", "gateway-run"], Names(seeded, page));
    }

    [Fact]
    public async Task Query_TargetKind_KeepsOnlyThatKind()
    {
        await using var seeded = await SeedAsync();
        Assert.Equal(["direct-run", "gateway-run"], Names(seeded, await QueryAsync(seeded, new RunHistoryFilter { TargetKind = TargetKind.CosmosSql })));
    }

    [Fact]
    public async Task Query_Status_KeepsOnlyThatStatus()
    {
        await using var seeded = await SeedAsync();
        Assert.Equal(["table-run"], Names(seeded, await QueryAsync(seeded, new RunHistoryFilter { Status = RunStatus.Failed })));
    }

    [Theory]
    [InlineData("gateway", new[] { "gateway-run" })]
    [InlineData(" Gateway ", new[] { "gateway-run" })]
    [InlineData("gate", new string[0])]
    [InlineData("2 cores", new[] { "simulated-run", "gateway-run" })]
    [InlineData("gateway, 2 cores", new[] { "gateway-run" })]
    public async Task Query_Tag_MatchesWholeTagsNotSubstrings(string tag, string[] expected)
    {
        await using var seeded = await SeedAsync();
        Assert.Equal(expected, Names(seeded, await QueryAsync(seeded, new RunHistoryFilter { Tag = tag })));
    }

    [Fact]
    public async Task Query_DateRange_IncludesBothWholeDays()
    {
        await using var seeded = await SeedAsync();
        var twoDays = await QueryAsync(seeded, new RunHistoryFilter { From = new DateOnly(2026, 11, 2), To = new DateOnly(2026, 11, 3) });
        var oneDay = await QueryAsync(seeded, new RunHistoryFilter { From = new DateOnly(2026, 11, 2), To = new DateOnly(2026, 11, 2) });
        var fromOnly = await QueryAsync(seeded, new RunHistoryFilter { From = new DateOnly(2026, 11, 4) });

        Assert.Equal(["table-run", "direct-run"], Names(seeded, twoDays));
        Assert.Equal(["direct-run"], Names(seeded, oneDay));
        Assert.Equal(["simulated-run", "running-run"], Names(seeded, fromOnly));
    }

    [Fact]
    public async Task Query_DateRange_IsInTheGivenTimeZone()
    {
        await using var seeded = await SeedAsync();
        // 2026-11-02 23:59:59 UTC is already 3 November in UTC+2.
        var plusTwo = TimeZoneInfo.CreateCustomTimeZone("UTC+2", TimeSpan.FromHours(2), "UTC+2", "UTC+2");
        await using var db = await seeded.Context.Databases.CreateDbContextAsync();

        var page = await RunHistoryQuery.ExecuteAsync(db, new RunHistoryFilter { From = new DateOnly(2026, 11, 3), To = new DateOnly(2026, 11, 3) }, plusTwo, CancellationToken.None);

        Assert.Equal(["table-run", "direct-run"], Names(seeded, page));
    }

    [Theory]
    [InlineData("warm-UP", new[] { "gateway-run" })]
    [InlineData("50%", new[] { "table-run" })]
    [InlineData("done_", new[] { "table-run" })]
    [InlineData("0%", new[] { "table-run" })]
    [InlineData("5%0", new string[0])]
    public async Task Query_NotesText_MatchesLiterallyIgnoringCase(string text, string[] expected)
    {
        await using var seeded = await SeedAsync();
        Assert.Equal(expected, Names(seeded, await QueryAsync(seeded, new RunHistoryFilter { Notes = text })));
    }

    [Fact]
    public async Task Query_SortByThroughput_PutsRunsWithoutFiguresLastBothWays()
    {
        await using var seeded = await SeedAsync();
        var ascending = await QueryAsync(seeded, new RunHistoryFilter { Sort = RunHistorySort.Throughput, Descending = false });
        var descending = await QueryAsync(seeded, new RunHistoryFilter { Sort = RunHistorySort.Throughput, Descending = true });

        Assert.Equal(["gateway-run", "direct-run", "simulated-run", "running-run", "table-run"], Names(seeded, ascending));
        Assert.Equal(["simulated-run", "direct-run", "gateway-run", "running-run", "table-run"], Names(seeded, descending));
    }

    [Theory]
    [InlineData(RunHistorySort.Id, false, new[] { "gateway-run", "direct-run", "table-run", "running-run", "simulated-run" })]
    [InlineData(RunHistorySort.Profile, false, new[] { "direct-run", "gateway-run", "simulated-run", "running-run", "table-run" })]
    [InlineData(RunHistorySort.Target, false, new[] { "direct-run", "gateway-run", "simulated-run", "running-run", "table-run" })]
    [InlineData(RunHistorySort.Status, false, new[] { "simulated-run", "direct-run", "gateway-run", "table-run", "running-run" })]
    [InlineData(RunHistorySort.Queued, true, new[] { "simulated-run", "running-run", "table-run", "direct-run", "gateway-run" })]
    [InlineData(RunHistorySort.Duration, true, new[] { "gateway-run", "direct-run", "simulated-run", "running-run", "table-run" })]
    [InlineData(RunHistorySort.P99, false, new[] { "simulated-run", "direct-run", "gateway-run", "running-run", "table-run" })]
    [InlineData(RunHistorySort.Throttled, true, new[] { "direct-run", "gateway-run", "simulated-run", "running-run", "table-run" })]
    public async Task Query_SortColumn_OrdersByIt(RunHistorySort sort, bool descending, string[] expected)
    {
        await using var seeded = await SeedAsync();
        Assert.Equal(expected, Names(seeded, await QueryAsync(seeded, new RunHistoryFilter { Sort = sort, Descending = descending })));
    }

    [Fact]
    public async Task Query_Paging_ReturnsThePageAndTheTotalCount()
    {
        await using var seeded = await SeedAsync();
        var first = await QueryAsync(seeded, new RunHistoryFilter { PageSize = 2 });
        var last = await QueryAsync(seeded, new RunHistoryFilter { PageSize = 2, Page = 3 });
        var past = await QueryAsync(seeded, new RunHistoryFilter { PageSize = 2, Page = 9 });

        Assert.Equal(["simulated-run", "running-run"], Names(seeded, first));
        Assert.Equal((5, 3, 1), (first.TotalCount, first.PageCount, first.Page));
        Assert.Equal(["gateway-run"], Names(seeded, last));
        Assert.Equal(3, past.Page);
        Assert.Equal(["gateway-run"], Names(seeded, past));
    }

    [Fact]
    public async Task Query_CombinedFilters_CountOnlyRunsMatchingAll()
    {
        await using var seeded = await SeedAsync();
        var page = await QueryAsync(seeded, new RunHistoryFilter { Status = RunStatus.Completed, Tag = "2 cores", PageSize = 1 });

        Assert.Equal(2, page.TotalCount);
        Assert.Equal(["simulated-run"], Names(seeded, page));
    }

    [Fact]
    public async Task Query_NothingMatches_IsAnEmptyFirstPage()
    {
        await using var seeded = await SeedAsync();
        var page = await QueryAsync(seeded, new RunHistoryFilter { Profile = "no such profile", Page = 4 });

        Assert.Empty(page.Rows);
        Assert.Equal((0, 1, 1), (page.TotalCount, page.PageCount, page.Page));
    }

    private static async Task<RunHistoryPage> QueryAsync(Seeded seeded, RunHistoryFilter filter)
    {
        await using var db = await seeded.Context.Databases.CreateDbContextAsync();
        return await RunHistoryQuery.ExecuteAsync(db, filter, TimeZoneInfo.Utc, CancellationToken.None);
    }

    private static string[] Names(Seeded seeded, RunHistoryPage page) =>
        page.Rows.Select(r => seeded.Ids.Single(pair => pair.Value == r.Id).Key).ToArray();

    private static async Task AddRunAsync(Seeded seeded, string key, string profile, TargetKind kind, RunStatus status, DateTimeOffset queuedAt,
        double? throughput, double? p99, double? throttled, string? tags, string? notes)
    {
        await using var db = await seeded.Context.Databases.CreateDbContextAsync();
        var run = new RunEntity
        {
            ProfileName = profile,
            PlanJson = "{}",
            TargetKind = kind,
            Status = status,
            QueuedAt = queuedAt,
            AverageThroughput = throughput,
            P99LatencyMs = p99,
            ThrottledFraction = throttled,
            ElapsedSeconds = throughput is null ? null : 120_000 / throughput,
            Tags = tags,
            Notes = notes,
        };
        db.Runs.Add(run);
        await db.SaveChangesAsync();
        seeded.Ids[key] = run.Id;
    }
}
