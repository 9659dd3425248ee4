using System.Diagnostics;
using BenchEngine.Running;
using BenchWeb.Tests.Support;
using Microsoft.Extensions.Time.Testing;

namespace BenchWeb.Tests.Engine.Running;

[UnitTest]
public class OpenLoopPacerTests
{
    [Fact]
    public void For_TheSystemClockOnLinux_SleepsOnAThreadOfItsOwn_AndAnyOtherClockAwaitsIt()
    {
        Assert.Equal(OperatingSystem.IsLinux(), OpenLoopPacer.For(TimeProvider.System).OwnThread);
        Assert.False(OpenLoopPacer.For(new FakeTimeProvider()).OwnThread);
    }

    [Fact]
    public async Task WaitUntil_OnTheSystemClock_NeverReturnsBeforeTheInstant()
    {
        var pacer = OpenLoopPacer.For(TimeProvider.System);
        using var stop = new CancellationTokenSource();
        var early = new List<long>();
        for (var k = 0; k < 200; k++)
        {
            // From "already due" through sub-millisecond waits to a few milliseconds (the coarse wait and the kernel timer).
            var due = Stopwatch.GetTimestamp() + ((k % 40) - 5) * (Stopwatch.Frequency / 10_000);
            await pacer.WaitUntilAsync(due, stop.Token);
            if (Stopwatch.GetTimestamp() < due)
            {
                early.Add(due);
            }
        }

        Assert.Empty(early);
    }

    [Fact]
    public async Task WaitUntil_OnTheSystemClock_EndsWhenTheStopComes_HoweverFarTheInstant()
    {
        var pacer = OpenLoopPacer.For(TimeProvider.System);
        using var stop = new CancellationTokenSource();
        var waiting = Task.Run(async () => await pacer.WaitUntilAsync(Stopwatch.GetTimestamp() + (600 * Stopwatch.Frequency), stop.Token));
        var forStop = Task.Run(async () => await pacer.WaitForStopAsync(stop.Token));

        await stop.CancelAsync();

        // Bounded, so a pacer the stop cannot wake fails the test instead of hanging it.
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => waiting.WaitAsync(TimeSpan.FromMinutes(1)));
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => forStop.WaitAsync(TimeSpan.FromMinutes(1)));
    }
}
