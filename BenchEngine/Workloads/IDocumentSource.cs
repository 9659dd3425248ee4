namespace BenchEngine.Workloads;

/// <summary>
/// A stream of documents. Implementations hold no per-document state, so memory does not grow with
/// the number of documents written. Calls are serialised by the caller (not thread-safe).
/// </summary>
public interface IDocumentSource : IDisposable
{
    /// <summary>A short, human description, e.g. "Flight record (50 columns, ~1,056 B)".</summary>
    string Description { get; }

    /// <summary>Produces the next document, or <c>false</c> when the source is exhausted (a CSV file's end).</summary>
    bool TryNext(out Document document);

    /// <summary>Padding fills documents to their target size as <paramref name="measure"/> counts them: the target's own
    /// request body, with every property the target adds (a partition-key property). Called before the first document.</summary>
    void MeasureWith(Func<Document, int> measure)
    {
    }
}
