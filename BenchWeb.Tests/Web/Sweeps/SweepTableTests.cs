using System.Globalization;
using BenchEngine.Running;
using BenchEngine.Sweeps;
using BenchWeb.Data;
using BenchWeb.Sweeps;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Web.Sweeps;

[UnitTest]
public class SweepTableTests
{
    private static readonly SweepOptions TwoSeries = new()
    {
        Setting = "Load.Concurrency",
        Values = ["8", "16"],
        SeriesSetting = "Target.Cosmos.ConnectionMode",
        SeriesValues = ["Gateway", "Direct"],
    };

    private static RunEntity Run(long id, int step, double throughput) => new()
    {
        Id = id,
        ProfileName = "p",
        PlanJson = "{}",
        Status = RunStatus.Completed,
        SweepId = 1,
        SweepStep = step,
        SummaryJson = System.Text.Json.JsonSerializer.Serialize(new BenchEngine.Metrics.RunSummary { MeanPerSecondThroughput = throughput, ThrottledFraction = 0.005 }, RunPlan.JsonOptions),
    };

    [Fact]
    public void From_RunsOfTwoSeries_NamesEachStepsSeriesAndValueAndMarksTheKnees()
    {
        var knees = new[] { new KneeResult { Series = "Gateway", RecommendedIndex = 1 }, new KneeResult { Series = "Direct", RecommendedIndex = 2 } };

        var rows = SweepStepRow.From(TwoSeries, [Run(13, 3, 400), Run(10, 0, 100), Run(11, 1, 200), Run(12, 2, 300)], knees);

        Assert.Equal([("Gateway", "8"), ("Gateway", "16"), ("Direct", "8"), ("Direct", "16")], rows.Select(r => (r.Series!, r.Value)));
        Assert.Equal([10L, 11, 12, 13], rows.Select(r => r.RunId));
        Assert.Equal([false, true, true, false], rows.Select(r => r.Recommended));
        Assert.Equal(0.5, rows[0].ThrottledPercent);
    }

    [Fact]
    public async Task WriteCsv_OneRowPerStep_InvariantNumbers()
    {
        var rows = SweepStepRow.From(TwoSeries, [Run(10, 0, 1234.5), Run(11, 1, 2000)], [new KneeResult { Series = "Gateway", RecommendedIndex = 1 }]);
        await using var text = new StringWriter(CultureInfo.InvariantCulture);

        await SweepTable.WriteCsvAsync(rows, text, CancellationToken.None);

        var lines = text.ToString().Split("\r\n", StringSplitOptions.RemoveEmptyEntries);
        Assert.Equal(string.Join(",", SweepTable.Columns.Select(c => c.Contains(',', StringComparison.Ordinal) ? $"\"{c}\"" : c)), lines[0]);
        Assert.StartsWith("1,Gateway,8,Completed,1234.5,", lines[1], StringComparison.Ordinal);
        Assert.EndsWith(",yes", lines[2], StringComparison.Ordinal);
    }

    [Fact]
    public void ToMarkdown_MarksTheRecommendedStep_AndEscapesPipes()
    {
        var rows = new[]
        {
            new SweepStepRow { Index = 0, Value = "a|b", Status = RunStatus.Completed, Throughput = 9_850, P99Ms = 12 },
            new SweepStepRow { Index = 1, Value = "c", Status = RunStatus.Failed, Recommended = true },
        };

        var markdown = SweepTable.ToMarkdown(rows).Split(Environment.NewLine, StringSplitOptions.RemoveEmptyEntries);

        Assert.Equal(4, markdown.Length);
        Assert.Equal("| 1 |  | a\\|b | Completed | 9,850 |  | 12.0 |  |  |  |  |", markdown[2]);
        Assert.EndsWith("| **◀ recommended** |", markdown[3], StringComparison.Ordinal);
    }
}
