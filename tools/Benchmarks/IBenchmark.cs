
namespace Benchmarks;

/// <summary>One benchmark of this program: <c>tools/bench.sh NAME</c> runs it alone, <c>tools/bench.sh all</c> runs every
/// benchmark whose <see cref="RunsUnderAll"/> is true, in the order of Program.cs. It prints its figures as it goes.</summary>
internal interface IBenchmark
{
    /// <summary>The name that chooses it on the command line (the first argument).</summary>
    string Name { get; }

    /// <summary>Whether <c>all</c> runs it.</summary>
    bool RunsUnderAll => true;

    /// <summary>Runs the benchmark against the local servers of <paramref name="host"/>, printing its figures.</summary>
    Task RunAsync(BenchmarkHost host);
}
