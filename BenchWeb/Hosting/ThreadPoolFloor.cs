namespace BenchWeb.Hosting;

/// <summary>The thread pool's minimum of worker threads (<see cref="Configuration.BenchWebOptions.MinWorkerThreads"/>): how many
/// it starts at once when work queues, before it begins adding them one about every half second.</summary>
public static class ThreadPoolFloor
{
    /// <summary>Raises the minimum to <paramref name="workers"/> when it is lower; never lowers it (the runtime's, the processor
    /// count, or one set before). The I/O completion threads' minimum stays as it is.</summary>
    /// <returns>The minimum in force afterwards.</returns>
    public static int Raise(int workers)
    {
        ThreadPool.GetMinThreads(out var current, out var completionPorts);
        return workers > current && ThreadPool.SetMinThreads(workers, completionPorts) ? workers : current;
    }
}
