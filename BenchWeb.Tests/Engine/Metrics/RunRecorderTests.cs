using BenchEngine.Metrics;
using BenchEngine.Targets;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Engine.Metrics;

[UnitTest]
public class RunRecorderTests
{
    [Fact]
    public void CloseSecond_CountsEachResponseInExactlyOneSecond()
    {
        var recorder = new RunRecorder();
        recorder.Record(OperationOutcome.Ok(201, 1, 5.5, 150), TimeSpan.FromMilliseconds(4));
        recorder.Record(OperationOutcome.Throttled(429, 0, TimeSpan.FromMilliseconds(30)));
        recorder.Record(OperationOutcome.Failed(409, 1.2, "conflict"));

        var first = recorder.CloseSecond(0, TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(1), 12);
        recorder.Record(OperationOutcome.Ok(202, 100, 700, 15_000), TimeSpan.FromMilliseconds(283));
        var second = recorder.CloseSecond(1, TimeSpan.FromSeconds(2), TimeSpan.FromSeconds(1), 13);

        Assert.Equal((1, 1, 1, 6.7), (first.Ok, first.Throttled, first.Errors, Math.Round(first.RequestUnits, 6)));
        Assert.Equal(1, first.ErrorsByStatus[409]);
        Assert.Equal(4, first.LatencyP99Ms);
        Assert.Equal(100, second.Ok);
        Assert.Equal(1, second.OkRequests);
        Assert.Equal(0, second.Throttled);
        Assert.InRange(second.LatencyP50Ms!.Value, 283, 283.3);
        Assert.Equal(2, recorder.Total.Count);
    }

    [Theory]
    [InlineData("ok")]
    [InlineData("throttled")]
    [InlineData("error")]
    [InlineData("given up")]
    [InlineData("sent")]
    [InlineData("not sent")]
    public void HasOpenCounts_UntilTheSecondThatHoldsThemCloses(string what)
    {
        var recorder = new RunRecorder();
        Assert.False(recorder.HasOpenCounts);

        switch (what)
        {
            case "ok": recorder.Record(OperationOutcome.Ok(201, 1, 5, 150), TimeSpan.FromMilliseconds(4)); break;
            case "throttled": recorder.Record(OperationOutcome.Throttled(429, 0, TimeSpan.FromMilliseconds(30))); break;
            case "error": recorder.Record(OperationOutcome.Failed(503, 0, "503 ServiceUnavailable")); break;
            case "given up": recorder.RecordGivenUp(OperationOutcome.Throttled(429, 0, TimeSpan.FromMilliseconds(30)), 1); break;
            case "sent": recorder.OperationStarted(); break;
            default: recorder.RequestsDropped(); break;
        }

        Assert.True(recorder.HasOpenCounts, what);
        recorder.CloseSecond(0, TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(1), 0);
        Assert.False(recorder.HasOpenCounts, what);
    }

    [Fact]
    public async Task Record_FromManyThreads_LosesNothing()
    {
        var recorder = new RunRecorder();
        var seconds = new List<SecondSnapshot>();
        using var done = new CancellationTokenSource();
        var closer = Task.Run(async () =>
        {
            var i = 0;
            while (!done.IsCancellationRequested)
            {
                seconds.Add(recorder.CloseSecond(i, TimeSpan.FromSeconds(i + 1), TimeSpan.FromSeconds(1), 0));
                i++;
                await Task.Delay(1);
            }
        });

        await Task.WhenAll(Enumerable.Range(0, 8).Select(_ => Task.Run(() =>
        {
            for (var n = 0; n < 50_000; n++)
            {
                recorder.Record(OperationOutcome.Ok(201, 1, 1, 1), TimeSpan.FromMilliseconds(1));
            }
        })));
        await done.CancelAsync();
        await closer;
        seconds.Add(recorder.CloseSecond(seconds.Count, TimeSpan.Zero, TimeSpan.Zero, 0));

        Assert.Equal(400_000, seconds.Sum(s => s.Ok));
        Assert.Equal(400_000, recorder.Total.Count);
    }

    [Fact]
    public void Total_HasThePercentilesOfEverySecondsValuesTogether_NotAnAverageOfSecondPercentiles()
    {
        // Seconds of 1 ms, 100 ms and 10 ms operations: the seconds' P99s average 37 ms; over all 300
        // operations the P99 is 100 ms.
        var recorder = new RunRecorder();
        var seconds = new List<SecondSnapshot>();
        foreach (var (ms, index) in new[] { 1, 100, 10 }.Select((ms, index) => (ms, index)))
        {
            for (var i = 0; i < 100; i++)
            {
                recorder.Record(OperationOutcome.Ok(201, 1, 1, 1), TimeSpan.FromMilliseconds(ms));
            }

            seconds.Add(recorder.CloseSecond(index, TimeSpan.FromSeconds(index + 1), TimeSpan.FromSeconds(1), 0));
        }

        Assert.Equal([1, 100, 10], seconds.Select(s => s.LatencyP99Ms));
        Assert.Equal(100, recorder.Total.MillisecondsAtPercentile(99));
        Assert.InRange(recorder.Total.MillisecondsAtPercentile(50), 10, 10.01);
        Assert.Equal(300, recorder.Total.Count);
    }

    [Fact]
    public void Total_EqualsTheMergeOfTheSeconds_AtEveryReportedPercentile()
    {
        var random = new Random(7);
        var recorder = new RunRecorder();
        var seconds = new List<LatencyDistribution>();
        for (var second = 0; second < 5; second++)
        {
            var values = new LatencyDistribution();
            for (var i = 0; i < 2_000 * (second + 1); i++)
            {
                var latency = TimeSpan.FromMicroseconds(Math.Exp(random.NextDouble() * 14));
                recorder.Record(OperationOutcome.Ok(201, 1, 1, 1), latency);
                values.Record(latency);
            }

            var snapshot = recorder.CloseSecond(second, TimeSpan.FromSeconds(second + 1), TimeSpan.FromSeconds(1), 0);
            Assert.Equal(values.MillisecondsAtPercentile(99), snapshot.LatencyP99Ms);
            seconds.Add(values);
        }

        var merged = new LatencyDistribution();
        seconds.ForEach(merged.Add);
        foreach (var percentile in new[] { 50, 95, 96, 99, 99.9, 100 })
        {
            Assert.Equal(merged.ValueAtPercentile(percentile), recorder.Total.ValueAtPercentile(percentile));
        }

        Assert.Equal(merged.Count, recorder.Total.Count);
        Assert.Equal(merged.MaxMicroseconds, recorder.Total.MaxMicroseconds);
        Assert.Equal(merged.MeanMicroseconds, recorder.Total.MeanMicroseconds);
    }
}
