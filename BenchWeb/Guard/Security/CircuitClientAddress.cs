using System.Net;

namespace BenchWeb.Guard.Security;

/// <summary>The remote address of a page's user. A circuit has no request of its own once it runs, so the address is
/// taken from the connection that starts (or reconnects) the circuit, by <see cref="ClientAddressCircuitHandler"/>.</summary>
public sealed class CircuitClientAddress
{
    public IPAddress? RemoteIp { get; set; }
}
