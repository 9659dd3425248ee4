namespace BenchEngine.Workloads;

/// <summary>
/// The fields of one document after another. Each shape only says what its documents hold;
/// <see cref="DocumentSource"/> adds what every workload shares (id, partition key, padding).
/// </summary>
internal interface IFieldSource : IDisposable
{
    /// <summary>What the documents are, e.g. "Flight record (50 columns, ~1,056 B)".</summary>
    string Description { get; }

    /// <summary>The field names, in the order <see cref="TryFill"/> writes them; known before the first
    /// document so a partition-key field can be checked and located once.</summary>
    IReadOnlyList<string> FieldNames { get; }

    /// <summary>Writes the next document's fields; <c>false</c> when there are no more documents.</summary>
    /// <param name="sequence">The document's number in this source, from 0.</param>
    /// <param name="fields">Exactly <see cref="FieldNames"/>.Count slots, filled in that order.</param>
    bool TryFill(long sequence, Span<KeyValuePair<string, object?>> fields);
}
