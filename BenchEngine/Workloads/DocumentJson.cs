using System.Buffers;
using System.Globalization;
using System.Text.Json;

namespace BenchEngine.Workloads;

/// <summary>Writes a <see cref="Document"/> as the JSON body Cosmos DB receives.</summary>
/// <remarks>On the hot path (every document is measured, and written once more by its target): each thread keeps one JSON
/// writer and one scratch buffer, so measuring allocates nothing and writing allocates only what the caller keeps.</remarks>
public static class DocumentJson
{
    // A scratch buffer that grew past this (a large document) is let go rather than kept by its thread.
    private const int KeptScratchBytes = 64 * 1024;

    private const int ScratchBytes = 4_096;

    private static readonly JsonWriterOptions Options = new() { SkipValidation = true };

    [ThreadStatic]
    private static Utf8JsonWriter? t_writer;

    [ThreadStatic]
    private static ArrayBufferWriter<byte>? t_scratch;

    /// <summary>Writes <c>{"id": …, fields…}</c>; adds <paramref name="partitionKeyProperty"/> with the
    /// partition key value when no field of that name exists.</summary>
    public static void Write(IBufferWriter<byte> output, Document document, string? partitionKeyProperty = null)
    {
        ArgumentNullException.ThrowIfNull(output);
        ArgumentNullException.ThrowIfNull(document);
        var writer = t_writer;
        if (writer is null)
        {
            t_writer = writer = new Utf8JsonWriter(output, Options);
        }
        else
        {
            writer.Reset(output);
        }

        try
        {
            WriteDocument(writer, document, partitionKeyProperty);
            writer.Flush();
        }
        finally
        {
            // Holds on to no caller's buffer between two documents (the thread's own scratch buffer instead: a stream would
            // make the writer allocate a buffer of its own each time).
            writer.Reset(t_scratch ??= new ArrayBufferWriter<byte>(ScratchBytes));
        }
    }

    /// <summary>The size in bytes of the document as JSON; allocates nothing once its thread has measured one.</summary>
    public static int Measure(Document document, string? partitionKeyProperty = null)
    {
        var scratch = Scratch();
        Write(scratch, document, partitionKeyProperty);
        var size = scratch.WrittenCount;
        Release(scratch);
        return size;
    }

    /// <summary>The document as JSON in an array of exactly its size: the one allocation a target that hands the bytes on
    /// (and cannot give them back) needs.</summary>
    public static byte[] ToArray(Document document, string? partitionKeyProperty = null)
    {
        var scratch = Scratch();
        Write(scratch, document, partitionKeyProperty);
        var bytes = scratch.WrittenSpan.ToArray();
        Release(scratch);
        return bytes;
    }

    private static ArrayBufferWriter<byte> Scratch()
    {
        var scratch = t_scratch ??= new ArrayBufferWriter<byte>(ScratchBytes);
        scratch.ResetWrittenCount();
        return scratch;
    }

    private static void Release(ArrayBufferWriter<byte> scratch)
    {
        if (scratch.Capacity > KeptScratchBytes)
        {
            t_scratch = null;
        }
    }

    private static void WriteDocument(Utf8JsonWriter writer, Document document, string? partitionKeyProperty)
    {
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
