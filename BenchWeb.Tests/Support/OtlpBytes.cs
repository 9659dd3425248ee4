using System.Text;

namespace BenchWeb.Tests.Support;

/// <summary>The protobuf encoding of the few OTLP messages a test looks for in an export's bytes (no protobuf library needed
/// for so little): an attribute is <c>KeyValue { string key = 1; AnyValue value = 2; }</c>, its value
/// <c>AnyValue { string string_value = 1; }</c>.</summary>
public static class OtlpBytes
{
    public static byte[] StringAttribute(string key, string value)
    {
        var any = LengthDelimited(1, Encoding.UTF8.GetBytes(value));
        return [.. LengthDelimited(1, Encoding.UTF8.GetBytes(key)), .. LengthDelimited(2, any)];
    }

    private static byte[] LengthDelimited(int field, byte[] payload)
    {
        var bytes = new List<byte> { (byte)((field << 3) | 2) };
        for (var length = (uint)payload.Length; ; length >>= 7)
        {
            if (length < 0x80)
            {
                bytes.Add((byte)length);
                break;
            }

            bytes.Add((byte)((length & 0x7F) | 0x80));
        }

        bytes.AddRange(payload);
        return [.. bytes];
    }
}
