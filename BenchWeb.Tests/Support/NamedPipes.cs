using System.Diagnostics;

namespace BenchWeb.Tests.Support;

/// <summary>Real named pipes (FIFOs), made with <c>mkfifo</c>: a path that blocks whoever opens it for reading until
/// something writes to it.</summary>
public static class NamedPipes
{
    /// <summary>Makes a named pipe at <paramref name="folder"/>/<paramref name="name"/> and returns its path.</summary>
    public static string Make(string folder, string name)
    {
        var path = Path.Combine(folder, name);
        using var mkfifo = Process.Start(new ProcessStartInfo("mkfifo", [path]) { UseShellExecute = false })!;
        mkfifo.WaitForExit();
        Assert.Equal(0, mkfifo.ExitCode);
        return path;
    }

    /// <summary>Runs <paramref name="check"/>, failing rather than hanging when it blocks on the pipe: then the pipe is
    /// opened for writing and closed, which lets a reader stuck in opening it go. A check that waits for a writer waits for
    /// ever, so the bound is generous: a busy machine's slowness is not mistaken for it.</summary>
    public static async Task<T> WithinAsync<T>(string pipe, Func<Task<T>> check)
    {
        var task = Task.Run(check);
        if (await Task.WhenAny(task, Task.Delay(TimeSpan.FromSeconds(30))) != task)
        {
            await new FileStream(pipe, FileMode.Open, FileAccess.Write).DisposeAsync();
            await task.ContinueWith(_ => { }, TaskScheduler.Default);
            Assert.Fail("Reading the path waited for a writer to open the named pipe.");
        }

        return await task;
    }

    /// <inheritdoc cref="WithinAsync{T}(string, Func{Task{T}})"/>
    public static Task<T> WithinAsync<T>(string pipe, Func<T> check) => WithinAsync(pipe, () => Task.FromResult(check()));
}
