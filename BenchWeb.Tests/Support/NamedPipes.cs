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
    /// opened for reading and writing (on Linux that never waits) and closed, which lets a reader or a writer stuck in
    /// opening it go (the one then reads an empty file, the other writes to no reader).
    /// A check that waits for the other end waits for ever, so the bound is generous: a busy machine's slowness is not
    /// mistaken for it.</summary>
    public static async Task<T> WithinAsync<T>(string pipe, Func<Task<T>> check)
    {
        var task = Task.Run(check);
        if (await Task.WhenAny(task, Task.Delay(TimeSpan.FromSeconds(30))) != task)
        {
            await new FileStream(pipe, FileMode.Open, FileAccess.ReadWrite).DisposeAsync();
            await task.ContinueWith(_ => { }, TaskScheduler.Default);

            Assert.Fail("The path was opened as a named pipe, waiting for its other end.");
        }

        return await task;
    }

    /// <inheritdoc cref="WithinAsync{T}(string, Func{Task{T}})"/>
    public static Task<T> WithinAsync<T>(string pipe, Func<T> check) => WithinAsync(pipe, () => Task.FromResult(check()));
}
