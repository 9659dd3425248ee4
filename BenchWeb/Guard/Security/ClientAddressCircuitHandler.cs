using Microsoft.AspNetCore.Components.Server.Circuits;

namespace BenchWeb.Guard.Security;

/// <summary>Captures the remote address of the connection a circuit starts on. Created in the circuit's scope while
/// the framework handles the connection's start-circuit call, the one moment the connection's HTTP context is at
/// hand; a reconnection (possibly from another address) updates it.</summary>
internal sealed class ClientAddressCircuitHandler : CircuitHandler
{
    private readonly IHttpContextAccessor _http;
    private readonly CircuitClientAddress _address;

    public ClientAddressCircuitHandler(IHttpContextAccessor http, CircuitClientAddress address)
    {
        _http = http;
        _address = address;
        Capture();
    }

    public override Task OnConnectionUpAsync(Circuit circuit, CancellationToken cancellationToken)
    {
        Capture();
        return Task.CompletedTask;
    }

    private void Capture()
    {
        if (_http.HttpContext?.Connection.RemoteIpAddress is { } address)
        {
            _address.RemoteIp = address;
        }
    }
}
