using System.Text.Json.Nodes;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Hosting;

/// <summary>The runtime settings the dashboard (and every agent and headless run, the same program) starts with, read from the
/// runtime configuration the build writes beside <c>BenchWeb.dll</c>.</summary>
[UnitTest]
public sealed class RuntimeConfigTests
{
    [Fact]
    public void ThreadPoolWorkers_DoNotSpin_BeforeTheyWait()
    {
        // A spinning worker ends its spin in yields; beside other busy processes each yield can hand the core away for a whole
        // time slice, and a light client then loses a third of its throughput to processes it does not compete with.
        var path = Path.Combine(AppContext.BaseDirectory, "BenchWeb.runtimeconfig.json");
        var config = JsonNode.Parse(File.ReadAllText(path))!;

        var spinLimit = config["runtimeOptions"]?["configProperties"]?["System.Threading.ThreadPool.UnfairSemaphoreSpinLimit"];

        Assert.NotNull(spinLimit);
        Assert.Equal(0, spinLimit.GetValue<int>());
    }
}
