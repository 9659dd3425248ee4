using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Architecture;

[UnitTest]
public sealed class ArchitectureTests
{
    [Fact]
    public void Print()
    {
        var graph = NamespaceGraph.Of(typeof(BenchWeb.Data.BenchDbContext).Assembly, "BenchWeb");
        foreach (var (folder, reached) in graph.OrderBy(g => g.Key, StringComparer.Ordinal))
        {
            Console.WriteLine($"{folder} -> {string.Join(", ", reached.Order(StringComparer.Ordinal))}");
        }

        foreach (var loop in NamespaceGraph.Loops(graph))
        {
            Console.WriteLine("LOOP: " + string.Join(", ", loop));
        }
    }
}
