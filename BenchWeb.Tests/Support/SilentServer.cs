using System.Net;
using System.Net.Sockets;

namespace BenchWeb.Tests.Support;

/// <summary>A loopback TCP endpoint that accepts every connection and never answers: a service that hangs. It counts
/// the connections it accepted, so a test can tell whether a client reached it at all.</summary>
public sealed class SilentServer : IAsyncDisposable
{
    private readonly TcpListener _listener = new(IPAddress.Loopback, 0);
    private readonly CancellationTokenSource _closing = new();
    private readonly List<Socket> _accepted = [];
    private readonly Task _accepting;

    public SilentServer()
    {
        _listener.Start();
        _accepting = AcceptAsync();
    }

    public int Port => ((IPEndPoint)_listener.LocalEndpoint).Port;

    /// <summary>An http URL of this server, by IP address.</summary>
    public string Endpoint => $"http://127.0.0.1:{Port}/";

    public int Accepted
    {
        get
        {
            lock (_accepted)
            {
                return _accepted.Count;
            }
        }
    }

    /// <summary>A storage connection string whose table endpoint is this server (the key is Azurite's public one).</summary>
    public string TableConnectionString(string host = "127.0.0.1") =>
        $"DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey={AzuriteServer.DevelopmentKey};TableEndpoint=http://{host}:{Port}/devstoreaccount1;";

    public async ValueTask DisposeAsync()
    {
        await _closing.CancelAsync();
        _listener.Stop();
        lock (_accepted)
        {
            foreach (var socket in _accepted)
            {
                socket.Dispose();
            }
        }

        try
        {
            await _accepting;
        }
        catch (Exception ex) when (ex is SocketException or ObjectDisposedException or OperationCanceledException)
        {
            // Stopping the listener ends the accept loop this way.
        }

        _closing.Dispose();
    }

    private async Task AcceptAsync()
    {
        while (!_closing.IsCancellationRequested)
        {
            var socket = await _listener.AcceptSocketAsync(_closing.Token);
            lock (_accepted)
            {
                _accepted.Add(socket);
            }
        }
    }
}
