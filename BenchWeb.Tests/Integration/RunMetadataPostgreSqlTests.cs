using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Apis;
using BenchWeb.Data;
using BenchWeb.History;
using BenchWeb.Provenance;
using BenchWeb.Tests.Support;
using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.EntityFrameworkCore;

namespace BenchWeb.Tests.Integration;

/// <summary>Run metadata in shared mode's database: a real PostgreSQL server, migrated as a shared installation is, with the
/// runs list's and the API's metadata filter translated to its SQL.</summary>
[IntegrationTest]
[Slow]
public sealed class RunMetadataPostgreSqlTests : IAsyncLifetime
{
    private readonly PostgresServer _postgres = new();
    private IDbContextFactory<BenchDbContext> _databases = null!;

    public async Task InitializeAsync()
    {
        await _postgres.InitializeAsync();
        _databases = new PostgreSqlContextFactory(new DbContextOptionsBuilder<BenchDbContext>().UseNpgsql(await _postgres.CreateDatabaseAsync()).Options);
        await using var db = await _databases.CreateDbContextAsync();
        await db.Database.MigrateAsync();
    }

    public Task DisposeAsync() => _postgres.DisposeAsync();

    [Fact]
    public async Task MetaFilter_OnPostgreSql_FindsExactlyTheRunsWithThatPair()
    {
        var release = await AddAsync(("commit", "1a2b"), ("branch", "release/1.2"), ("note", "Ünïcode <ok>"));
        await AddAsync(("branch", "release/1.2.1"));
        await AddAsync(("note", "\"branch\":\"release/1.2\""));
        await AddAsync(("Branch", "release/1.2"));
        await AddAsync();

        Assert.Equal([release], await HistoryAsync("branch=release/1.2"));
        Assert.Equal([release], await HistoryAsync("note=Ünïcode <ok>"));
        Assert.Empty(await HistoryAsync("branch=release"));
        Assert.Equal(5, (await HistoryAsync(null)).Length);
        Assert.Equal([release], await ApiAsync("commit=1a2b"));
        Assert.Empty(await ApiAsync("commit=1A2B"));
        await using var db = await _databases.CreateDbContextAsync();
        Assert.Equal(
            [KeyValuePair.Create("commit", "1a2b"), KeyValuePair.Create("branch", "release/1.2"), KeyValuePair.Create("note", "Ünïcode <ok>")],
            RunMetadata.FromStored(await db.Runs.Where(r => r.Id == release).Select(r => r.MetadataJson).SingleAsync()).Pairs);
    }

    private async Task<long[]> HistoryAsync(string? meta)
    {
        await using var db = await _databases.CreateDbContextAsync();
        var page = await RunHistoryQuery.ExecuteAsync(db, new RunHistoryFilter { Meta = meta }, TimeZoneInfo.Utc, CancellationToken.None);
        return [.. page.Rows.Select(r => r.Id)];
    }

    private async Task<long[]> ApiAsync(string meta)
    {
        var answer = await RunsApi.ListAsync(null, null, null, meta, null, new RunReader(_databases, TimeProvider.System), CancellationToken.None);
        var page = Assert.IsType<Ok<RunPage>>(answer.Result).Value!;
        return [.. page.Items.Select(r => r.Id)];
    }

    private async Task<long> AddAsync(params (string Key, string Value)[] pairs)
    {
        var metadata = new RunMetadata(pairs.Select(p => KeyValuePair.Create(p.Key, p.Value)));
        Assert.Empty(metadata.Validate());
        var start = new DateTimeOffset(2026, 11, 20, 8, 0, 0, TimeSpan.Zero);
        await using var db = await _databases.CreateDbContextAsync();
        var run = new RunEntity
        {
            ProfileName = "shared",
            PlanJson = new RunPlan { Name = "shared" }.ToJson(),
            TargetKind = TargetKind.Simulated,
            Status = RunStatus.Completed,
            QueuedAt = start,
            MetadataJson = metadata.ToStored(),
        };
        db.Runs.Add(run);
        await db.SaveChangesAsync();
        return run.Id;
    }
}
