using System.Text.Json;
using System.Text.Json.Serialization;

namespace BenchEngine.Targets;

/// <summary>
/// The kind of service a plan writes to, by its stable name (<c>CosmosSql</c>, <c>TableStorage</c>, <c>Redis</c>): what
/// plans, runs and exports store. The set of kinds is open: each target's folder declares its own kind (a part of this
/// type) and its <see cref="TargetModule"/>, and <see cref="TargetRegistry"/> lists the modules. A name no module claims
/// is kept as it was read and refused by validation, naming the kinds there are.
/// </summary>
[JsonConverter(typeof(TargetKindJsonConverter))]
public readonly partial record struct TargetKind
{
    /// <summary>The longest kind name a plan or a stored run may carry.</summary>
    public const int MaxNameLength = 20;

    public TargetKind(string name)
    {
        ArgumentNullException.ThrowIfNull(name);
        Name = name;
    }

    /// <summary>The stable name, e.g. <c>CosmosSql</c>; never shown to a reader (see <see cref="TargetModule.DisplayName"/>).
    /// An unset kind (<c>default</c>) is the simulator, the kind that needs no account, as the enum this type replaced had it.</summary>
    public string Name => field ?? "Simulated";

    /// <summary>This kind's module, or <see cref="TargetRegistry.Unknown"/> when no module claims the name.</summary>
    public TargetModule Module => TargetRegistry.Of(this);

    /// <summary>Kinds are equal by name (an unset kind equals the simulator's).</summary>
    public bool Equals(TargetKind other) => string.Equals(Name, other.Name, StringComparison.Ordinal);

    public override int GetHashCode() => StringComparer.Ordinal.GetHashCode(Name);

    public override string ToString() => Name;
}

/// <summary>A kind is written and read as its name, as the enum it replaces was; a number is not a kind.</summary>
internal sealed class TargetKindJsonConverter : JsonConverter<TargetKind>
{
    public override TargetKind Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options) =>
        reader.TokenType == JsonTokenType.String
            ? TargetRegistry.Parse(reader.GetString()!)
            : throw new JsonException("A target kind is a name in quotes, e.g. \"CosmosSql\".");

    public override void Write(Utf8JsonWriter writer, TargetKind value, JsonSerializerOptions options) => writer.WriteStringValue(value.Name);
}
