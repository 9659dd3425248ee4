using System.Text.Json;
using System.Text.Json.Serialization;

namespace BenchWeb.Provenance;

/// <summary>Reads and writes <see cref="RunMetadata"/> as a JSON object of text values (<c>{"commit": "1a2b", "branch": "main"}</c>).
/// A key given twice is kept twice, so that <see cref="RunMetadata.Validate"/> names it instead of the last one silently
/// winning; null reads as no pairs; a value that is not text is refused with its path.</summary>
internal sealed class RunMetadataJsonConverter : JsonConverter<RunMetadata>
{
    public override bool HandleNull => true;

    public override RunMetadata Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options)
    {
        if (reader.TokenType == JsonTokenType.Null)
        {
            return RunMetadata.Empty;
        }

        if (reader.TokenType != JsonTokenType.StartObject)
        {
            throw new JsonException("Metadata is an object of text values, e.g. {\"commit\": \"1a2b3c4\"}.");
        }

        var pairs = new List<KeyValuePair<string, string>>();
        while (reader.Read() && reader.TokenType != JsonTokenType.EndObject)
        {
            var key = reader.GetString() ?? "";
            reader.Read();
            if (reader.TokenType != JsonTokenType.String)
            {
                throw new JsonException("Metadata values are text: write this one in quotes.");
            }

            pairs.Add(KeyValuePair.Create(key, reader.GetString() ?? ""));
        }

        return new RunMetadata(pairs);
    }

    public override void Write(Utf8JsonWriter writer, RunMetadata value, JsonSerializerOptions options)
    {
        ArgumentNullException.ThrowIfNull(writer);
        writer.WriteStartObject();
        foreach (var (key, text) in value?.Pairs ?? [])
        {
            writer.WritePropertyName(key);
            writer.WriteStringValue(text);
        }

        writer.WriteEndObject();
    }
}
