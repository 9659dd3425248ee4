using System.Net.Security;
using System.Net.Sockets;

namespace BenchEngine.Targets;

/// <summary>
/// The HTTP handler the SDKs send through: every connection it opens is first checked against an
/// <see cref="EndpointPolicy"/>, by the host and port it is about to connect to, so whatever address a request was sent
/// to (a redirect, a regional endpoint from the service's account metadata) a refused host is never reached.
/// </summary>
internal static class PolicedHttpHandler
{
    /// <param name="policy">Decides each connection.</param>
    /// <param name="acceptAnyServerCertificate">Accept any TLS certificate (a local emulator's self-signed one;
    /// validation allows it for loopback endpoints only).</param>
    /// <param name="maxConnectionsPerServer">Most concurrent connections to one server.</param>
    public static SocketsHttpHandler Create(EndpointPolicy policy, bool acceptAnyServerCertificate, int maxConnectionsPerServer = int.MaxValue)
    {
        ArgumentNullException.ThrowIfNull(policy);
        var handler = new SocketsHttpHandler
        {
            MaxConnectionsPerServer = maxConnectionsPerServer,

            // The SDKs never need a redirect; following one would send the request, credentials included, elsewhere.
            AllowAutoRedirect = false,

            // A proxy would make every connection go to the proxy's host, which the policy would then have to allow
            // instead of the real endpoint; the policy decides on the real endpoint only.
            UseProxy = false,

            // What the Cosmos SDK sets on its own handler: more HTTP/2 connections when streams run out, and pings
            // that find a dead pooled connection.
            EnableMultipleHttp2Connections = true,
            KeepAlivePingDelay = TimeSpan.FromSeconds(1),
            KeepAlivePingTimeout = TimeSpan.FromSeconds(2),
            KeepAlivePingPolicy = HttpKeepAlivePingPolicy.Always,
            ConnectCallback = async (context, cancellationToken) =>
            {
                var scheme = context.InitialRequestMessage.RequestUri?.Scheme ?? Uri.UriSchemeHttps;
                var endpoint = new UriBuilder(scheme, context.DnsEndPoint.Host, context.DnsEndPoint.Port).Uri;
                if (policy.Check(endpoint) is { } refusal)
                {
                    throw new EndpointRefusedException(refusal);
                }

                var socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
                try
                {
                    await socket.ConnectAsync(context.DnsEndPoint, cancellationToken).ConfigureAwait(false);
                    return new NetworkStream(socket, ownsSocket: true);
                }
                catch
                {
                    socket.Dispose();
                    throw;
                }
            },
        };
        if (acceptAnyServerCertificate)
        {
            // Only when a profile asks for it, which validation allows for a loopback endpoint (a local emulator) only.
#pragma warning disable CA5359
            handler.SslOptions = new SslClientAuthenticationOptions { RemoteCertificateValidationCallback = static (_, _, _, _) => true };
#pragma warning restore CA5359
        }

        return handler;
    }
}
