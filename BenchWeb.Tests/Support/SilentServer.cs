using System.Net;
using System.Net.Sockets;

namespace BenchWeb.Tests.Support;

/// <summary>A loopback TCP endpoint that accepts every connection and never answers: a service that hangs. It keeps
/// the connections it accepted, so a test can tell whether a client reached it at all.</summary>
public sealed class SilentServer : IAsyncDisposable
{
    private readonly TcpListener _listener = new(IPAddress.Loopback, 0);
    private readonly CancellationTokenSource _closing = new();
    private readonly List<Socket> _accepted = [];
    private readonly TaskCompletionSource _firstAccepted = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly Task _accepting;

    public SilentServer()
    {
        _listener.Start();
        _accepting = AcceptAsync();
    }

    public int Port => ((IPEndPoint)_listener.LocalEndpoint).Port;

    /// <summary>An http URL of this server, by IP address.</summary>
    public string Endpoint => $"http://127.0.0.1:{Port}/";

    /// <summary>Completes when the first connection is accepted: a client has reached the endpoint.</summary>
    public Task FirstAccepted => _firstAccepted.Task;

    /// <summary>How many connections clients made before this call. It connects once itself and counts the connections
    /// accepted before its own: they are accepted in the order they arrived, so none made earlier is missed however late
    /// a busy machine accepts it, as a fixed wait before counting could. The probe itself counts in later calls.</summary>
    public async Task<int> ConnectionsBeforeAsync()
    {
        using var probe = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        await probe.ConnectAsync(IPAddress.Loopback, Port);
        var probePort = ((IPEndPoint)probe.LocalEndPoint!).Port;
        var before = -1;
        await Eventually.TrueAsync(() =>
        {
            lock (_accepted)
            {
                before = _accepted.FindIndex(s => s.RemoteEndPoint is IPEndPoint { Port: var port } && port == probePort);
            }

            return Task.FromResult(before >= 0);
        }, TimeSpan.FromSeconds(60), "the probe connection to be accepted");
        return before;
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

            _firstAccepted.TrySetResult();
        }
    }
}
