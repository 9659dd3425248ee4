using System.Diagnostics;

namespace BenchWeb.Tests.Support;

/// <summary>Polls a condition that a background job makes true.</summary>
public static class Eventually
{
    public static async Task TrueAsync(Func<Task<bool>> condition, TimeSpan timeout, string what)
    {
        ArgumentNullException.ThrowIfNull(condition);
        var clock = Stopwatch.StartNew();
        while (!await condition())
        {
            if (clock.Elapsed > timeout)
            {
                throw new TimeoutException($"Waited {timeout.TotalSeconds:N0} s for {what}.");
            }

            await Task.Delay(100);
        }
    }
}
