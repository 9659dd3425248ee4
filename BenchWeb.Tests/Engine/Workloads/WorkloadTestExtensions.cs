using BenchEngine.Workloads;
using Microsoft.Extensions.Time.Testing;

namespace BenchWeb.Tests.Engine.Workloads;

internal static class WorkloadTestExtensions
{
    public static readonly DateTimeOffset FixedNow = new(2015, 1, 1, 12, 30, 0, TimeSpan.Zero);

    /// <summary>The first <paramref name="count"/> documents of the workload (fewer if the source ends).</summary>
    public static List<Document> Generate(this WorkloadOptions options, int count, TimeProvider? timeProvider = null)
    {
        using var source = DocumentSourceFactory.Create(options, timeProvider ?? new FakeTimeProvider(FixedNow));
        return source.Take(count);
    }

    public static List<Document> Take(this IDocumentSource source, int count)
    {
        var documents = new List<Document>();
        while (documents.Count < count && source.TryNext(out var document))
        {
            documents.Add(document);
        }

        return documents;
    }

    public static object? Field(this Document document, string name) =>
        document.Fields.Single(f => f.Key == name).Value;

    public static string Text(this Document document, string name) =>
        Assert.IsType<string>(document.Field(name));

    public static bool HasField(this Document document, string name) =>
        document.Fields.Any(f => f.Key == name);
}
