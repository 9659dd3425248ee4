using BenchEngine.Metrics;
using BenchEngine.Targets;

namespace BenchWeb.Tests.Engine.Metrics;

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
        Assert.InRange(second.LatencyP50Ms, 283, 283.3);
        Assert.Equal(2, recorder.Total.Count);
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
}
