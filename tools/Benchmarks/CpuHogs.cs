using System.Diagnostics;

namespace Benchmarks;

/// <summary>Processes that each keep a core busy (<c>yes &gt; /dev/null</c>), as a user's other programs would, for as long as
/// the instance lives. The benchmark stops only the processes it started.</summary>
internal sealed class CpuHogs : IDisposable
{
    private readonly List<Process> _processes = [];

    private CpuHogs()
    {
    }

    public static CpuHogs Start(int count)
    {
        var hogs = new CpuHogs();
        for (var i = 0; i < count; i++)
        {
            var start = new ProcessStartInfo("sh") { UseShellExecute = false };
            start.ArgumentList.Add("-c");
            start.ArgumentList.Add("exec yes > /dev/null");
            hogs._processes.Add(Process.Start(start) ?? throw new InvalidOperationException("Could not start a CPU hog (sh -c 'exec yes > /dev/null')."));
        }

        return hogs;
    }

    public void Dispose()
    {
        foreach (var process in _processes)
        {
            process.Kill();
            process.WaitForExit();
            process.Dispose();
        }
    }
}
