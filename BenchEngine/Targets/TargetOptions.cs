using System.ComponentModel;
using System.Text.Json.Serialization;

namespace BenchEngine.Targets;

/// <summary>Where documents are written and how. Each target's folder adds its own settings section to this record
/// (<c>Cosmos</c>, <c>Tables</c>, <c>Simulator</c>, …), and only the kind's module reads its own. In memory the record has
/// every section; a plan written to JSON keeps the kind's section only (<see cref="TargetSectionsJson"/>), and one that
/// carries every section still reads.</summary>
public sealed partial record TargetOptions
{
    [Description("The service to write to. The simulator is a model of Cosmos DB that needs no account.")]
    [JsonPropertyOrder(-2)]
    public TargetKind Kind { get; init; } = TargetRegistry.Default;

    /// <summary>Create fails on an existing id; upsert replaces (Tables: insert or insert-or-replace).</summary>
    [JsonPropertyOrder(-1)]
    public WriteOperation Operation { get; init; } = WriteOperation.Create;
}

[JsonConverter(typeof(JsonStringEnumConverter<WriteOperation>))]
public enum WriteOperation
{
    Create,
    Upsert,
}
