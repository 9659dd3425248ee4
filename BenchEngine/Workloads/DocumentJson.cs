using System.Buffers;
using System.Globalization;
using System.Text.Json;

namespace BenchEngine.Workloads;

/// <summary>Writes a <see cref="Document"/> as the JSON body Cosmos DB receives.</summary>
public static class DocumentJson
{
    /// <summary>Writes <c>{"id": …, fields…}</c>; adds <paramref name="partitionKeyProperty"/> with the
    /// partition key value when no field of that name exists.</summary>
    public static void Write(IBufferWriter<byte> output, Document document, string? partitionKeyProperty = null)
    {
        ArgumentNullException.ThrowIfNull(document);
        using var writer = new Utf8JsonWriter(output, new JsonWriterOptions { SkipValidation = true });
        writer.WriteStartObject();
        writer.WriteString("id"u8, document.Id);
        var hasPartitionKeyField = partitionKeyProperty is null;
        foreach (var (name, value) in document.Fields)
        {
            if (!hasPartitionKeyField && string.Equals(name, partitionKeyProperty, StringComparison.Ordinal))
            {
                hasPartitionKeyField = true;
            }

            writer.WritePropertyName(name);
            WriteValue(writer, value);
        }

        if (!hasPartitionKeyField)
        {
            writer.WriteString(partitionKeyProperty!, document.PartitionKey);
        }

        writer.WriteEndObject();
    }

    /// <summary>The size in bytes of the document as JSON.</summary>
    public static int Measure(Document document, string? partitionKeyProperty = null)
    {
        var buffer = new ArrayBufferWriter<byte>(512);
        Write(buffer, document, partitionKeyProperty);
        return buffer.WrittenCount;
    }

    private static void WriteValue(Utf8JsonWriter writer, object? value)
    {
        switch (value)
        {
            case null: writer.WriteNullValue(); break;
            case string s: writer.WriteStringValue(s); break;
            case int i: writer.WriteNumberValue(i); break;
            case long l: writer.WriteNumberValue(l); break;
            case double d: writer.WriteNumberValue(d); break;
            case decimal m: writer.WriteNumberValue(m); break;
            case bool b: writer.WriteBooleanValue(b); break;
            case DateTimeOffset t: writer.WriteStringValue(t); break;
            case DateTime t: writer.WriteStringValue(t); break;
            case Guid g: writer.WriteStringValue(g); break;
            case JsonElement e: e.WriteTo(writer); break;
            default: writer.WriteStringValue(Convert.ToString(value, CultureInfo.InvariantCulture)); break;
        }
    }
}
