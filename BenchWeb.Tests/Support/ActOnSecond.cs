using BenchEngine.Metrics;
using BenchEngine.Running;

namespace BenchWeb.Tests.Support;

/// <summary>Runs an action when a given second of the run closes.</summary>
internal sealed class ActOnSecond(int index, Action action) : IRunObserver
{
    public ValueTask OnStartedAsync(RunStart start, CancellationToken cancellationToken) => default;

    public ValueTask OnSecondAsync(SecondSnapshot second, CancellationToken cancellationToken)
    {
        if (second.Index == index)
        {
            action();
        }

        return default;
    }
}
