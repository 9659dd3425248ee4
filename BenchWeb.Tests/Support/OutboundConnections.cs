using System.Collections.Concurrent;
using System.Diagnostics.Tracing;
using System.Globalization;
using System.Net;
using System.Net.Sockets;
using System.Runtime.CompilerServices;

namespace BenchWeb.Tests.Support;

/// <summary>Every network connection this process starts while it listens, from the runtime's own socket telemetry
/// (the <c>System.Net.Sockets</c> event source's ConnectStart): HTTP clients, SDKs and raw sockets alike.
/// Connections to Unix domain sockets (local by nature) are left out.</summary>
public sealed class OutboundConnections : EventListener
{
    private readonly ConcurrentQueue<IPEndPoint> _endpoints = new();
    private readonly ConcurrentQueue<string> _unreadable = new();

    /// <summary>Every connection of this test process since its test assembly loaded.</summary>
    public static OutboundConnections SinceStart { get; private set; } = null!;

    public IReadOnlyCollection<IPEndPoint> Endpoints => _endpoints;

    /// <summary>Addresses the listener could not read (the test fails on them rather than let them pass).</summary>
    public IReadOnlyCollection<string> Unreadable => _unreadable;

    [ModuleInitializer]
    [System.Diagnostics.CodeAnalysis.SuppressMessage("Usage", "CA2255", Justification = "Records from before the first test, so a connection made by any test counts.")]
    internal static void StartRecording() => SinceStart = new OutboundConnections();

    protected override void OnEventSourceCreated(EventSource eventSource)
    {
        ArgumentNullException.ThrowIfNull(eventSource);
        if (eventSource.Name == "System.Net.Sockets")
        {
            EnableEvents(eventSource, EventLevel.Informational);
        }
    }

    protected override void OnEventWritten(EventWrittenEventArgs eventData)
    {
        ArgumentNullException.ThrowIfNull(eventData);
        if (eventData.EventName != "ConnectStart" || eventData.Payload is not [string address, ..] || address.StartsWith($"{AddressFamily.Unix}:", StringComparison.Ordinal))
        {
            return;
        }

        if (TryParse(address) is { } endpoint)
        {
            _endpoints.Enqueue(endpoint);
        }
        else
        {
            _unreadable.Enqueue(address);
        }
    }

    /// <summary>Reads <see cref="SocketAddress.ToString"/>'s form, e.g. <c>InterNetwork:16:{0,80,127,0,0,1,…}</c>.</summary>
    internal static IPEndPoint? TryParse(string text)
    {
        var parts = text.Split(':', 3);
        if (parts.Length != 3
            || !Enum.TryParse<AddressFamily>(parts[0], out var family)
            || family is not (AddressFamily.InterNetwork or AddressFamily.InterNetworkV6)
            || !int.TryParse(parts[1], CultureInfo.InvariantCulture, out var size))
        {
            return null;
        }

        // The bytes after the two that hold the family: port, then address.
        var values = parts[2].Trim('{', '}').Split(',', StringSplitOptions.TrimEntries);
        if (values.Length != size - 2)
        {
            return null;
        }

        var socketAddress = new SocketAddress(family, size);
        for (var i = 0; i < values.Length; i++)
        {
            if (!byte.TryParse(values[i], CultureInfo.InvariantCulture, out var value))
            {
                return null;
            }

            socketAddress[i + 2] = value;
        }

        return (IPEndPoint)new IPEndPoint(family == AddressFamily.InterNetwork ? IPAddress.Any : IPAddress.IPv6Any, 0).Create(socketAddress);
    }
}
