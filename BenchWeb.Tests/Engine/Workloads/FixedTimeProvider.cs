namespace BenchWeb.Tests.Engine.Workloads;

/// <summary>A clock that always reads the same instant, so time fields can be asserted exactly.</summary>
internal sealed class FixedTimeProvider(DateTimeOffset now) : TimeProvider
{
    public override DateTimeOffset GetUtcNow() => now;
}
