using BenchWeb.Hosting;
using BenchWeb.Tests.Support;
using Microsoft.Extensions.Options;

namespace BenchWeb.Tests.Hosting;

/// <summary>The thread pool's minimum of worker threads the dashboard raises at its start (<c>BenchWeb:MinWorkerThreads</c>).</summary>
[UnitTest]
public sealed class ThreadPoolFloorTests
{
    [Fact]
    public void Raise_AboveTheMinimum_SetsIt_AndNeverLowersIt()
    {
        // Above the dashboard's default, which every test host in this process raises the minimum to.
        ThreadPool.GetMinThreads(out var before, out var completionPortsBefore);
        var asked = Math.Max(before, new BenchWeb.Configuration.BenchWebOptions().MinWorkerThreads) + 1;

        Assert.Equal(asked, ThreadPoolFloor.Raise(asked));
        ThreadPool.GetMinThreads(out var after, out var completionPorts);
        Assert.True(after >= asked, $"minimum {after}, asked {asked}");
        Assert.Equal(completionPortsBefore, completionPorts);

        // A lower one (0: the runtime's) leaves it.
        Assert.True(ThreadPoolFloor.Raise(0) >= asked);
        Assert.True(ThreadPoolFloor.Raise(1) >= asked);
        ThreadPool.GetMinThreads(out var still, out _);
        Assert.True(still >= asked);
    }

    [Theory]
    [InlineData("-1")]
    [InlineData("1001")]
    public async Task Start_MinWorkerThreadsOutOfRange_FailsNamingTheSetting(string value)
    {
        await using var app = new BenchWebFactory(new Dictionary<string, string?> { ["BenchWeb:MinWorkerThreads"] = value });

        var ex = Assert.Throws<OptionsValidationException>(() => app.Services);

        Assert.Contains("BenchWeb:MinWorkerThreads must be between 0 and 1,000.", ex.Message, StringComparison.Ordinal);
    }
}
