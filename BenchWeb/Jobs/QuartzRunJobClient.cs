using Quartz;

namespace BenchWeb.Jobs;

/// <summary>Runs jobs on the in-process Quartz.NET scheduler (<see cref="QuartzSchedulerHost"/>).</summary>
internal sealed class QuartzRunJobClient(QuartzSchedulerHost host) : IRunJobClient
{
    public async Task<string> EnqueueAsync(long runId, CancellationToken cancellationToken)
    {
        var key = RunBenchmarkJob.KeyFor(runId);
        var job = JobBuilder.Create<RunBenchmarkJob>()
            .WithIdentity(key)
            .UsingJobData(RunBenchmarkJob.RunIdKey, runId)
            .Build();
        var trigger = TriggerBuilder.Create()
            .WithIdentity(key.Name, key.Group)
            .StartNow()
            // Fire once, late if the runs before it take long; never re-fire.
            .WithSimpleSchedule(schedule => schedule.WithRepeatCount(0).WithMisfireHandlingInstructionFireNow())
            .Build();
        var scheduler = await host.GetSchedulerAsync(cancellationToken);
        await scheduler.ScheduleJob(job, trigger, cancellationToken);
        return key.ToString();
    }

    public async Task<bool> InterruptAsync(long runId, CancellationToken cancellationToken)
    {
        var scheduler = await host.GetSchedulerAsync(cancellationToken);
        return await scheduler.Interrupt(RunBenchmarkJob.KeyFor(runId), cancellationToken);
    }
}
