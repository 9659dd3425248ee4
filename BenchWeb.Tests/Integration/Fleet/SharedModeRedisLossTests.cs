using System.Globalization;
using Azure.Data.Tables;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;
using BenchWeb.Tests.Support;
using Npgsql;
using Xunit.Abstractions;

namespace BenchWeb.Tests.Integration.Fleet;

/// <summary>Shared mode when its Redis (the live backplane) dies mid-run: the run's clock does not wait for it, so the
/// seconds it stores are what the target received, second by second, only saved or pushed late.</summary>
[IntegrationTest]
[Slow]
[Collection(FleetCollection.Name)]
public sealed class SharedModeRedisLossTests(AzuriteServer azurite, ITestOutputHelper output)
{
    private const double Rate = 100;

    // Azurite stamps an entity when it stores it, the engine counts it when the answer arrives: around each boundary of a
    // second, entities this close to it may be counted on either side.
    private static readonly TimeSpan BoundaryJitter = TimeSpan.FromMilliseconds(300);

    [Fact]
    public async Task RedisKilledMidRun_TheStoredSecondsAreWhatTheTableReceivedEachSecond_AndTheRunCompletes()
    {
        await using var fleet = await SharedModeFleet.StartAsync();
        var agent = await fleet.AddAsync("agent-a", environment: new Dictionary<string, string> { ["TABLES_CONNECTION_STRING"] = azurite.ConnectionString });
        using var http = await agent.CreateSignedInClientAsync();
        await SharedModeFleet.WaitForAgentsAsync(http, 1);

        // Document i is due at the run clock's start + i / rate: its partition key is i.
        var table = StorageTargets.NewName();
        var plan = new RunPlan
        {
            Name = "redis killed mid-run",
            Target = new TargetOptions { Kind = TargetKind.TableStorage, Tables = new TableOptions { TableName = table } },
            Workload = new WorkloadOptions { Shape = DocumentShape.SmallDto, PartitionKey = new PartitionKeyOptions { Strategy = PartitionKeyStrategy.Sequence } },
            Load = new LoadOptions { Model = LoadModel.OpenLoop, RatePerSecond = Rate, Concurrency = 256 },
            Stop = new StopOptions { DurationSeconds = 20 },

            // What is measured here is the clock, not whether a busy machine kept the schedule.
            Thresholds = new ThresholdOptions { MaxDroppedPercent = 100 },
        };
        var runId = await SharedModeFleet.LaunchAsync(http, plan, agent);
        await using var db = new NpgsqlConnection(fleet.DatabaseConnectionString);
        await db.OpenAsync();
        await Eventually.TrueAsync(async () => await SharedModeFleet.ScalarAsync<long>(db, $"SELECT COUNT(*) FROM \"RunSeconds\" WHERE \"RunId\" = {runId}") >= 3,
            TimeSpan.FromSeconds(60), "three seconds saved");

        fleet.Redis.Kill();
        var killedAt = DateTimeOffset.UtcNow;
        await Task.Delay(TimeSpan.FromSeconds(10));
        await fleet.Redis.RestartAsync();

        var run = await SharedModeFleet.WaitForEndAsync(http, runId, TimeSpan.FromSeconds(180));
        output.WriteLine(run.ToString());
        Assert.Equal("Completed", run.GetProperty("status").GetString());

        var stored = await StoredSecondsAsync(db, runId);
        var received = await ReceivedAsync(table);
        Assert.Equal(received.Count, stored.Sum(s => s.Ok));

        // The run clock's start, from the table's side: no document is stored before it was due.
        var start = received.Min(e => e.StoredAt - TimeSpan.FromSeconds(e.Sequence / Rate));
        var late = stored.Where(s => s.ClosedAt > killedAt).Max(s => s.ClosedAt - (start + TimeSpan.FromSeconds(s.Index + 1)));
        output.WriteLine($"while Redis was away, a second was saved up to {late.TotalSeconds:N1} s after it closed");

        var full = stored.Where(s => s.DurationSeconds >= 0.999).ToList();
        Assert.InRange(full.Count, 20, 21);
        foreach (var second in full)
        {
            var from = start + TimeSpan.FromSeconds(second.Index);
            var to = from + TimeSpan.FromSeconds(1);
            var inTable = received.Count(e => e.StoredAt >= from && e.StoredAt < to);
            var nearBoundary = received.Count(e => (e.StoredAt - from).Duration() < BoundaryJitter || (e.StoredAt - to).Duration() < BoundaryJitter);
            Assert.True(Math.Abs(second.Ok - inTable) <= nearBoundary,
                $"second {second.Index}: {second.Ok} stored, {inTable} received by the table in it ({nearBoundary} within {BoundaryJitter.TotalMilliseconds} ms of its boundaries)");

            // No second takes the run past what the rate allows by the instant it closed (on time, or as late as its clock
            // says, on a starved machine).
            var upTo = stored.Where(s => s.Index <= second.Index).Sum(s => s.Ok);
            var closed = second.Index + 1 + ((second.ClockLagMs ?? 0) / 1000);
            Assert.True(upTo <= Math.Floor(Rate * closed) + 1, $"{upTo} stored by the end of second {second.Index} (closed at {closed:N3} s), at {Rate}/s");
        }
    }

    // How the database keeps an instant (the app's own conversion, so that SQLite can compare them).
    private static readonly Microsoft.EntityFrameworkCore.Storage.ValueConversion.DateTimeOffsetToBinaryConverter StoredTimes = new();

    private sealed record StoredSecond(int Index, double DurationSeconds, long Ok, long InFlight, DateTimeOffset ClosedAt, double? ClockLagMs);

    private sealed record Received(long Sequence, DateTimeOffset StoredAt);

    private static async Task<List<StoredSecond>> StoredSecondsAsync(NpgsqlConnection db, long runId)
    {
        var seconds = new List<StoredSecond>();
        await using var command = new NpgsqlCommand($"SELECT \"Index\", \"DurationSeconds\", \"Ok\", \"InFlight\", \"ClosedAt\", \"ClockLagMs\" FROM \"RunSeconds\" WHERE \"RunId\" = {runId} ORDER BY \"Index\"", db);
        await using var reader = await command.ExecuteReaderAsync();
        while (await reader.ReadAsync())
        {
            var closedAt = (DateTimeOffset)StoredTimes.ConvertFromProvider(reader.GetInt64(4))!;
            seconds.Add(new StoredSecond(reader.GetInt32(0), reader.GetDouble(1), reader.GetInt64(2), reader.GetInt64(3), closedAt, reader.IsDBNull(5) ? null : reader.GetDouble(5)));
        }

        return seconds;
    }

    /// <summary>Every entity in the table, read by the SDK's own client: its sequence number and when Azurite stored it.</summary>
    private async Task<List<Received>> ReceivedAsync(string table)
    {
        var client = new TableClient(azurite.ConnectionString, table);
        var received = new List<Received>();
        await foreach (var entity in client.QueryAsync<TableEntity>(filter: (string?)null, maxPerPage: 1000, select: ["PartitionKey", "Timestamp"]))
        {
            received.Add(new Received(long.Parse(entity.PartitionKey, CultureInfo.InvariantCulture), entity.Timestamp!.Value));
        }

        return received;
    }
}
