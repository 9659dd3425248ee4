using System.Collections.Concurrent;
using System.Collections.Specialized;
using System.Globalization;
using BenchWeb.Extensions;
using Microsoft.Extensions.Options;
using Quartz;
using Quartz.Impl;
using Quartz.Spi;

namespace BenchWeb.Jobs;

/// <summary>Owns the in-process Quartz.NET scheduler: in-memory job store (the run rows are the durable
/// record), as many worker threads as runs may execute at once, jobs created from the DI container.</summary>
public sealed class QuartzSchedulerHost(IServiceProvider services, IOptions<BenchWebOptions> options) : IHostedService, IJobFactory, IAsyncDisposable
{
    private readonly ConcurrentDictionary<IJob, IServiceScope> _scopes = new();
    private readonly SemaphoreSlim _gate = new(1, 1);
    private IScheduler? _scheduler;

    public async Task<IScheduler> GetSchedulerAsync(CancellationToken cancellationToken)
    {
        if (_scheduler is { } existing)
        {
            return existing;
        }

        await _gate.WaitAsync(cancellationToken);
        try
        {
            if (_scheduler is null)
            {
                var properties = new NameValueCollection
                {
                    // Unique: Quartz returns the process's existing scheduler of the same name, so two apps in one
                    // process (tests host several) would share one and run each other's jobs on the wrong database.
                    ["quartz.scheduler.instanceName"] = $"BenchWeb-{Guid.NewGuid():N}",
                    ["quartz.threadPool.maxConcurrency"] = options.Value.MaxConcurrentRuns.ToString(CultureInfo.InvariantCulture),
                    ["quartz.jobStore.type"] = "Quartz.Simpl.RAMJobStore, Quartz",
                    // A queued run may wait an hour behind another; it still starts when its turn comes.
                    ["quartz.jobStore.misfireThreshold"] = TimeSpan.FromDays(7).TotalMilliseconds.ToString(CultureInfo.InvariantCulture),
                };
                var scheduler = await new StdSchedulerFactory(properties).GetScheduler(cancellationToken);
                scheduler.JobFactory = this;
                _scheduler = scheduler;
            }

            return _scheduler;
        }
        finally
        {
            _gate.Release();
        }
    }

    public async Task StartAsync(CancellationToken cancellationToken) =>
        await (await GetSchedulerAsync(cancellationToken)).Start(cancellationToken);

    public async Task StopAsync(CancellationToken cancellationToken)
    {
        if (_scheduler is { } scheduler)
        {
            // Running jobs see the application stopping and record their runs as interrupted.
            await scheduler.Shutdown(waitForJobsToComplete: true, cancellationToken);
        }
    }

    IJob IJobFactory.NewJob(TriggerFiredBundle bundle, IScheduler scheduler)
    {
        var scope = services.CreateScope();
        var job = (IJob)scope.ServiceProvider.GetRequiredService(bundle.JobDetail.JobType);
        _scopes[job] = scope;
        return job;
    }

    void IJobFactory.ReturnJob(IJob job)
    {
        if (_scopes.TryRemove(job, out var scope))
        {
            scope.Dispose();
        }
    }

    public ValueTask DisposeAsync()
    {
        _gate.Dispose();
        return ValueTask.CompletedTask;
    }
}
