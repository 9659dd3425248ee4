using System.Globalization;
using BenchEngine.Metrics;
using BenchEngine.Running;
using BenchEngine.Sweeps;
using BenchWeb.Data;
using BenchWeb.Sweeps;
using BenchWeb.Tests.Support;
using CsvHelper;

namespace BenchWeb.Tests.Web.Sweeps;

[UnitTest]
public class SweepTableTests
{
    private const string ReRunNote = "re-run: p99 rose past the rule at this step only; the re-run did not confirm it";

    private static readonly SweepOptions TwoSeries = new()
    {
        Setting = "Load.Concurrency",
        Values = ["8", "16"],
        SeriesSetting = "Target.Cosmos.ConnectionMode",
        SeriesValues = ["Gateway", "Direct"],
    };

    internal static readonly SweepOptions ThreeValues = new() { Setting = "Load.Concurrency", Values = ["1", "2", "4"] };

    private static RunEntity Run(long id, int step, double throughput, RunSummary? summary = null) => new()
    {
        Id = id,
        ProfileName = "p",
        PlanJson = "{}",
        Status = RunStatus.Completed,
        SweepId = 1,
        SweepStep = step,
        SummaryJson = System.Text.Json.JsonSerializer.Serialize(summary ?? new RunSummary { MeanPerSecondThroughput = throughput, AverageThroughput = throughput, ThrottledFraction = 0.005 }, RunPlan.JsonOptions),
    };

    /// <summary>The results of a sweep of <see cref="ThreeValues"/> whose second step crossed the p99 rule alone and was re-run;
    /// the re-run, the highest throughput, did not confirm it.</summary>
    internal static SweepStepResult[] ReRunResults()
    {
        SweepStepResult Result(int index, double throughput, double p99) => new()
        {
            Index = index, Value = ThreeValues.Values[index], Status = RunStatus.Completed, Throughput = throughput, P99Ms = p99, SteadyThroughput = throughput, SteadyP99Ms = p99,
        };
        return [Result(0, 100, 10), Result(1, 200, 40), Result(1, 210, 11) with { IsReRun = true, ReRunReason = "p99 rose past the rule at this step only" }, Result(2, 205, 12)];
    }

    /// <summary>The rows of <see cref="ReRunResults"/>: the re-run is run 12, judged, and the recommended step.</summary>
    private static IReadOnlyList<SweepStepRow> WithReRun()
    {
        var knee = KneeDetector.Find(ReRunResults(), new KneeRule(), ThreeValues.Setting).Single();
        return SweepStepRow.From(ThreeValues, [Run(13, 2, 205), Run(12, 1, 210), Run(10, 0, 100), Run(11, 1, 200)], [knee]);
    }

    [Fact]
    public void From_RunsOfTwoSeries_NamesEachStepsSeriesAndValueAndMarksTheKnees()
    {
        var knees = new[] { new KneeResult { Series = "Gateway", RecommendedIndex = 1 }, new KneeResult { Series = "Direct", RecommendedIndex = 2 } };

        var rows = SweepStepRow.From(TwoSeries, [Run(13, 3, 400), Run(10, 0, 100), Run(11, 1, 200), Run(12, 2, 300)], knees);

        Assert.Equal([("Gateway", "8"), ("Gateway", "16"), ("Direct", "8"), ("Direct", "16")], rows.Select(r => (r.Series!, r.Value)));
        Assert.Equal([10L, 11, 12, 13], rows.Select(r => r.RunId));
        Assert.Equal([false, true, true, false], rows.Select(r => r.Recommended));
        Assert.Equal(0.5, rows[0].ThrottledPercent);
        Assert.All(rows, r => Assert.False(r.IsReRun));
    }

    [Fact]
    public void From_AStepReRun_ListsItAfterItsStepLinkedToItsOwnRun_WithWhyAndTheRecommendationOnTheJudgedRun()
    {
        var rows = WithReRun();

        Assert.Equal([(0, false, 10L), (1, false, 11), (1, true, 12), (2, false, 13)], rows.Select(r => (r.Index, r.IsReRun, r.RunId)));
        Assert.Equal(ReRunNote, rows[2].Note);
        Assert.Equal("", rows[1].Note);
        Assert.Equal([false, false, true, false], rows.Select(r => r.Recommended));
        Assert.Equal([true, false, true, true], rows.Select(r => r.Judged));
        Assert.Equal(11, rows[2].SteadyP99Ms);
    }

    [Fact]
    public void From_ClientLimitedStepWhileTheSweepRuns_IsMarkedWithItsReasonFromTheRunsSummary()
    {
        var summary = new RunSummary
        {
            Elapsed = TimeSpan.FromSeconds(10), MeanPerSecondThroughput = 50, ClientLimitedSeconds = 8,
            ClientLimitedSpans = [new ClientLimitedSpan { FirstSecond = 1, LastSecond = 8, Reason = "the client was starved: scheduling lag p99 180 ms, host CPU 100 %, this process 22 %" }],
        };

        var row = Assert.Single(SweepStepRow.From(ThreeValues, [Run(10, 0, 50, summary)], []));

        Assert.True(row.ClientLimited);
        Assert.Equal(8, row.ClientLimitedSeconds);
        Assert.Equal("client-limited: seconds 1–8: the client was starved: scheduling lag p99 180 ms, host CPU 100 %, this process 22 %", row.Note);
    }

    [Fact]
    public async Task From_AStepThatWarmedUp_GivesTheRunsAverageBesideItsRequestUnits_AndTheSteadyRateBesideItsOwn()
    {
        var rows = SweepStepRow.From(ThreeValues, [Run(10, 0, 0, BenchWeb.Tests.Engine.Sweeps.KneeDetectorTests.WarmedUp())], []);

        var row = Assert.Single(rows);
        // The run's page says 538.7/s on average and 3,232 RU/s: so does its step, and 3,232 ≈ 538.7 × 6 RU.
        Assert.Equal(538.7, row.Throughput);
        Assert.Equal(3_232, row.RequestUnitsPerSecond);
        Assert.Equal(628, row.SteadyThroughput);
        Assert.Equal(3_768, row.SteadyRequestUnitsPerSecond);

        await using var text = new StringWriter(CultureInfo.InvariantCulture);
        await SweepTable.WriteCsvAsync(rows, text, CancellationToken.None);
        using var csv = new CsvReader(new StringReader(text.ToString()), CultureInfo.InvariantCulture);
        await csv.ReadAsync();
        csv.ReadHeader();
        await csv.ReadAsync();
        Assert.Equal(("538.7", "3232", "628", "3768"), (csv.GetField("Average throughput (docs/s)"), csv.GetField("Average RU/s"), csv.GetField("Steady throughput (docs/s)"), csv.GetField("Steady RU/s")));
        Assert.Contains("| 539 |", SweepTable.ToMarkdown(rows), StringComparison.Ordinal);
    }

    [Fact]
    public async Task WriteCsv_OneRowPerRunInvariantNumbers_SaysWhichIsAReRunAndWhy()
    {
        var rows = WithReRun();
        await using var text = new StringWriter(CultureInfo.InvariantCulture);

        await SweepTable.WriteCsvAsync(rows, text, CancellationToken.None);

        using var csv = new CsvReader(new StringReader(text.ToString()), CultureInfo.InvariantCulture);
        var records = new List<Dictionary<string, string>>();
        await csv.ReadAsync();
        csv.ReadHeader();
        Assert.Equal(SweepTable.Columns, csv.HeaderRecord);
        while (await csv.ReadAsync())
        {
            records.Add(SweepTable.Columns.ToDictionary(c => c, c => csv.GetField(c)!));
        }

        Assert.Equal(4, records.Count);
        Assert.Equal(["1", "2", "2", "3"], records.Select(r => r["Step"]));
        Assert.Equal(["", "", "yes", ""], records.Select(r => r["Re-run"]));
        Assert.Equal(["10", "11", "12", "13"], records.Select(r => r["Run"]));
        Assert.Equal(ReRunNote, records[2]["Note"]);
        Assert.Equal("yes", records[2]["Recommended"]);
        Assert.Equal("210", records[2]["Average throughput (docs/s)"]);
    }

    [Fact]
    public void ToMarkdown_MarksTheRecommendedStepAndTheReRun_AndEscapesPipes()
    {
        var rows = new[]
        {
            new SweepStepRow { Index = 0, Value = "a|b", Status = RunStatus.Completed, Throughput = 9_850, P99Ms = 12, RunId = 4 },
            new SweepStepRow { Index = 1, Value = "c", Status = RunStatus.Failed, Recommended = true, RunId = 5 },
            new SweepStepRow { Index = 1, Value = "c", Status = RunStatus.Completed, IsReRun = true, RunId = 6, Note = ReRunNote },
        };

        var markdown = SweepTable.ToMarkdown(rows).Split(Environment.NewLine, StringSplitOptions.RemoveEmptyEntries);

        Assert.Equal(5, markdown.Length);
        Assert.Equal("| 1 |  | a\\|b | Completed | 9,850 |  | 12.0 |  |  |  |  |  |  |  | 0 |  |  | #4 |  |", markdown[2]);
        Assert.Contains("| **◀ recommended** |", markdown[3], StringComparison.Ordinal);
        Assert.EndsWith($"| re-run | #6 | {ReRunNote} |", markdown[4], StringComparison.Ordinal);
    }
}
