using System.Globalization;
using BenchEngine.Metrics;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Compare;
using BenchWeb.Tests.Support;
using BenchWeb.Tests.Support.Components;
using CsvHelper;

namespace BenchWeb.Tests.Web.Compare;

[UnitTest]
public sealed class ResultsTableBuilderTests
{
    [Fact]
    public async Task Markdown_MatchesTheSnapshot_ForTwoSeededRuns()
    {
        await using var context = new BenchWebComponentContext();
        var table = await BuildAsync(context);

        const string Expected =
            "| Run | Target | Connection | Bulk | Concurrency | Load model | Batch | RU/s | Avg latency (ms) | P50 latency (ms) | P75 latency (ms) | P90 latency (ms) | P95 latency (ms) | P98 latency (ms) | P99 latency (ms) | P99.9 latency (ms) | Max latency (ms) | Avg inserts/s | P99 of per-second inserts/s | Top 10 % of seconds inserts/s | RU/insert | Throttled % | Est. cost/month ($) | Client-limited seconds | Worst client second |\n" +
            "| --- | --- | --- | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n" +
            "| #1 G1 Gateway \\| 2 cores | Cosmos DB (SQL API) | Gateway | no | 10 | closed loop | 1 | 10,000 | 16.4 | 8.0 | 12.0 | 20.0 | 30.0 | 36.0 | 41.3 | 60.0 | 90.0 | 602 | 655 | 700 | 6.20 | 1.23 | 584.00 | — | — |\n" +
            "| #2 J1 open loop | Simulated Cosmos DB | — | — | 4 | open loop, 10/s | 1 | 400 | 5.9 | — | — | — | — | — | 15.0 | — | — | 10 | 11 | — | 5.71 | 0.00 | 23.36 | — | — |\n" +
            "\n" + ResultsTableBuilder.LatencyNote + "\n";
        Assert.Equal(Expected, table.ToMarkdown());
    }

    [Fact]
    public async Task Csv_ParsesBackWithCsvHelper_WithInvariantNumbers_WhateverTheCulture()
    {
        await using var context = new BenchWebComponentContext();
        var table = await BuildAsync(context);
        var previous = CultureInfo.CurrentCulture;
        CultureInfo.CurrentCulture = CultureInfo.GetCultureInfo("fr-FR");
        string text;
        try
        {
            text = table.ToCsv();
        }
        finally
        {
            CultureInfo.CurrentCulture = previous;
        }

        using var csv = new CsvReader(new StringReader(text), CultureInfo.InvariantCulture);
        Assert.True(csv.Read());
        csv.ReadHeader();
        Assert.Equal(ResultsTableBuilder.CsvHeaders, csv.HeaderRecord);
        Assert.True(csv.Read());
        Assert.Equal(1, csv.GetField<long>("Run id"));
        Assert.Equal("G1 Gateway | 2 cores", csv.GetField("Profile"));
        Assert.Equal("Gateway", csv.GetField("Connection"));
        Assert.Equal(10_000, csv.GetField<double>("RU/s"));
        Assert.Equal(16.43, csv.GetField<double>("Avg latency (ms)"));
        Assert.Equal(602.4, csv.GetField<double>("Avg inserts/s"));
        Assert.Equal(1.23, csv.GetField<double>("Throttled %"));
        Assert.Equal(584, csv.GetField<double>("Est. cost/month ($)"));
        Assert.True(csv.Read());
        Assert.Equal("J1 open loop", csv.GetField("Profile"));
        Assert.Equal("", csv.GetField("Connection"));
        Assert.Equal("open loop, 10/s", csv.GetField("Load model"));
        Assert.Equal("no", csv.GetField("Partial"));
        Assert.Equal(9.98, csv.GetField<double>("Avg inserts/s"));
        Assert.Equal(23.36, csv.GetField<double>("Est. cost/month ($)"));
        Assert.False(csv.Read());
    }

    [Fact]
    public async Task Cells_SayNotApplicable_ForTableStorage_AndUnknown_ForAThroughputThatCouldNotBeRead()
    {
        await using var context = new BenchWebComponentContext();
        await CompareSeed.AddRunAsync(context.Databases, new RunPlan { Name = "tables", Target = new TargetOptions { Kind = TargetKind.TableStorage } }, null,
            new RunSummary { Elapsed = TimeSpan.FromSeconds(10), TotalOk = 100, AverageThroughput = 10, RequestUnitsReported = false });
        await CompareSeed.AddRunAsync(context.Databases, CompareSeed.CosmosPlan("cosmos"), null,
            new RunSummary { Elapsed = TimeSpan.FromSeconds(10), TotalOk = 100, AverageThroughput = 10, RequestUnitsPerInsert = 5 });
        await using var db = await context.Databases.CreateDbContextAsync();
        var runs = (await RunComparison.LoadAsync(db, [1, 2], includeSeconds: false, CancellationToken.None)).Runs;

        var rows = new ResultsTableBuilder(runs).Rows.Select(ResultsTableBuilder.DisplayCells).ToList();

        int Column(string header) => ResultsTableBuilder.Headers.ToList().IndexOf(header);
        Assert.Equal(["n/a", "n/a", "n/a"], new[] { rows[0][Column("RU/s")], rows[0][Column("RU/insert")], rows[0][Column("Est. cost/month ($)")] });
        Assert.Equal(["unknown", "5.00", "unknown"], new[] { rows[1][Column("RU/s")], rows[1][Column("RU/insert")], rows[1][Column("Est. cost/month ($)")] });
    }

    [Fact]
    public async Task Csv_ProfileNameLikeAFormula_IsEscapedForSpreadsheets()
    {
        await using var context = new BenchWebComponentContext();
        var id = await CompareSeed.AddRunAsync(context.Databases, new RunPlan { Name = "=HYPERLINK(\"http://evil\",\"x\")" }, CompareSeed.Environment(),
            new RunSummary { Elapsed = TimeSpan.FromSeconds(10), AverageThroughput = 1 });
        await using var db = await context.Databases.CreateDbContextAsync();
        var table = new ResultsTableBuilder((await RunComparison.LoadAsync(db, [id], includeSeconds: false, CancellationToken.None)).Runs);

        var text = table.ToCsv();

        Assert.DoesNotContain(",=HYPERLINK", text, StringComparison.Ordinal);
        Assert.DoesNotContain(",\"=HYPERLINK", text, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Rows_ShowDashes_ForARunStillGoing()
    {
        await using var context = new BenchWebComponentContext();
        var id = await CompareSeed.AddRunAsync(context.Databases, new RunPlan { Name = "going", Stop = new StopOptions { DurationSeconds = 60 } }, null, null, status: RunStatus.Running);
        await using var db = await context.Databases.CreateDbContextAsync();
        var table = new ResultsTableBuilder((await RunComparison.LoadAsync(db, [id], includeSeconds: false, CancellationToken.None)).Runs);

        var cells = ResultsTableBuilder.DisplayCells(table.Rows.Single());

        Assert.Equal("#1 going", cells[0]);
        Assert.Equal("10,000", cells[7]);
        Assert.All(cells.Skip(8), cell => Assert.Equal("—", cell));
    }

    [Fact]
    public async Task Cells_MarkAPartialRun_AndLeaveOutTheLatencyItDidNotKeep()
    {
        await using var context = new BenchWebComponentContext();
        var seconds = SeededRuns.Seconds(10, 2_000, 6);
        var summary = SummaryCalculator.Calculate(seconds, new LatencyDistribution(), provisionedRuPerSecond: 400_000);
        var id = await CompareSeed.AddRunAsync(context.Databases, SeededRuns.Plan(TargetKind.Simulated, "left running"), null, summary, status: RunStatus.Interrupted);
        var table = await LoadAsync(context, id);

        var cells = ResultsTableBuilder.DisplayCells(table.Rows.Single());

        Assert.Equal($"#{id} left running (partial)", cells[0]);
        int Column(string header) => ResultsTableBuilder.Headers.ToList().IndexOf(header);
        Assert.All(ResultsTableBuilder.Headers.Where(h => h.EndsWith(" latency (ms)", StringComparison.Ordinal)), h => Assert.Equal("—", cells[Column(h)]));
        Assert.Equal(summary.AverageThroughput.ToString("N0", CultureInfo.InvariantCulture), cells[Column("Avg inserts/s")]);
        Assert.Equal("6.00", cells[Column("RU/insert")]);
    }

    private static async Task<ResultsTableBuilder> LoadAsync(BenchWebComponentContext context, params long[] ids)
    {
        await using var db = await context.Databases.CreateDbContextAsync();
        return new ResultsTableBuilder((await RunComparison.LoadAsync(db, ids, includeSeconds: false, CancellationToken.None)).Runs);
    }

    private static async Task<ResultsTableBuilder> BuildAsync(BenchWebComponentContext context)
    {
        var g1 = await CompareSeed.AddRunAsync(context.Databases,
            new RunPlan
            {
                Name = "G1 Gateway | 2 cores",
                Target = new TargetOptions { Kind = TargetKind.CosmosSql, Cosmos = new CosmosOptions { ConnectionMode = CosmosConnectionMode.Gateway, RequestUnits = 10_000 } },
                Load = new LoadOptions { Concurrency = 10 },
                Stop = new StopOptions { DocumentsPerWorker = 100_000 },
            },
            CompareSeed.Environment(),
            new RunSummary
            {
                Elapsed = TimeSpan.FromSeconds(1_660),
                AverageThroughput = 602.4,
                P99PerSecondThroughput = 655,
                Latency = new LatencySummary { MeanMs = 16.43, P50Ms = 8, P75Ms = 12, P90Ms = 20, P95Ms = 30, P98Ms = 36, P99Ms = 41.27, P999Ms = 60, MaxMs = 90 },
                Top10PercentMeanThroughput = 700,
                RequestUnitsPerInsert = 6.2,
                ThrottledFraction = 0.0123,
                ProvisionedRequestUnitsPerSecond = 10_000,
                EstimatedCostPerMonth = 584,
            });
        var j1 = await CompareSeed.AddRunAsync(context.Databases,
            new RunPlan
            {
                Name = "J1 open loop",
                Target = new TargetOptions { Simulator = new SimulatorOptions { ProvisionedRequestUnits = 400 } },
                Load = new LoadOptions { Model = LoadModel.OpenLoop, RatePerSecond = 10, Concurrency = 4 },
                Stop = new StopOptions { DurationSeconds = 60 },
            },
            CompareSeed.Environment(),
            new RunSummary
            {
                Elapsed = TimeSpan.FromSeconds(60),
                AverageThroughput = 9.98,
                P99PerSecondThroughput = 11,
                Latency = new LatencySummary { MeanMs = 5.9, P99Ms = 15 },
                RequestUnitsPerInsert = 5.71,
                ThrottledFraction = 0,
                ProvisionedRequestUnitsPerSecond = 400,
                EstimatedCostPerMonth = 23.36,
            });
        Assert.Equal((1, 2), (g1, j1));
        await using var db = await context.Databases.CreateDbContextAsync();
        return new ResultsTableBuilder((await RunComparison.LoadAsync(db, [g1, j1], includeSeconds: false, CancellationToken.None)).Runs);
    }
}
