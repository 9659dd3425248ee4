using System.Diagnostics;
using System.Globalization;
using BenchEngine.Running;
using BenchWeb.Configuration;
using BenchWeb.Data;

namespace BenchWeb.Execution;

/// <summary>A trace activity per run execution (source <see cref="SourceName"/>), with the run's number and target kind, an
/// event per status it goes through and its final status. Without a listener no activity is made.</summary>
internal static class RunActivity
{
    public const string SourceName = TelemetryOptions.ServiceName;

    /// <summary>The run's number, as text: the value of the engine's run tag too, so a trace and its run's metrics join.</summary>
    public const string RunIdTag = "benchweb.run.id";

    public const string TargetKindTag = "benchweb.target.kind";

    public const string StatusTag = "benchweb.run.status";

    private static readonly ActivitySource Source = new(SourceName, typeof(RunActivity).Assembly.GetName().Version?.ToString());

    /// <summary>Starts the run's activity (it becomes <see cref="Activity.Current"/> for the job's flow); null without a listener.</summary>
    public static Activity? Start(RunEntity run)
    {
        var activity = Source.StartActivity("run.execute");
        activity?.SetTag(RunIdTag, run.Id.ToString(CultureInfo.InvariantCulture)).SetTag(TargetKindTag, run.TargetKind.Name);
        return activity;
    }

    /// <summary>The run went to <paramref name="status"/>: an event, and the status tag (the last one is how it ended).</summary>
    public static void StatusChanged(RunStatus status)
    {
        if (Activity.Current is not { } activity || activity.Source != Source)
        {
            return;
        }

        var name = status.ToString();
        activity.SetTag(StatusTag, name).AddEvent(new ActivityEvent("run." + name.ToLowerInvariant()));
        if (status is RunStatus.Failed or RunStatus.Interrupted)
        {
            // No failure text: a collector is outside the dashboard's sign-in, and a failure may quote the plan.
            activity.SetStatus(ActivityStatusCode.Error, name);
        }
    }
}
