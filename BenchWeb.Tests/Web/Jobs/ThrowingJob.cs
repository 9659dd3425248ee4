namespace BenchWeb.Tests.Web.Jobs;

/// <summary>A job that always fails, to see what the job server does with a failure.</summary>
public static class ThrowingJob
{
    public static void Execute() => throw new InvalidOperationException("This job always fails.");
}
