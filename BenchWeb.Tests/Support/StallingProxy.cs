using System.Net;
using System.Net.Sockets;

namespace BenchWeb.Tests.Support;

/// <summary>
/// A loopback TCP proxy in front of a local server that can stop passing on what clients send: requests sent
/// after <see cref="Stall"/> stay in flight, never reaching the server, until the client gives up on them.
/// Responses keep flowing, so a request the server already has still gets its answer.
/// </summary>
public sealed class StallingProxy : IAsyncDisposable
{
    private readonly TcpListener _listener = new(IPAddress.Loopback, 0);
    private readonly int _serverPort;
    private readonly CancellationTokenSource _closing = new();
    private readonly List<TcpClient> _sockets = [];
    private readonly TaskCompletionSource _stalled = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly Task _accepting;

    public StallingProxy(int serverPort)
    {
        _serverPort = serverPort;
        _listener.Start();
        _accepting = AcceptAsync();
    }

    public int Port => ((IPEndPoint)_listener.LocalEndpoint).Port;

    /// <summary>From now on, nothing more a client sends reaches the server. There is no resuming: bytes held
    /// back for a client that has given up must never be delivered late.</summary>
    public void Stall() => _stalled.TrySetResult();

    public async ValueTask DisposeAsync()
    {
        await _closing.CancelAsync();
        _listener.Stop();
        lock (_sockets)
        {
            foreach (var socket in _sockets)
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
            var client = await _listener.AcceptTcpClientAsync(_closing.Token);
            var server = new TcpClient();
            lock (_sockets)
            {
                _sockets.Add(client);
                _sockets.Add(server);
            }

            try
            {
                await server.ConnectAsync(IPAddress.Loopback, _serverPort, _closing.Token);
            }
            catch (SocketException)
            {
                client.Dispose();
                continue;
            }

            _ = PumpAsync(client, server, towardsServer: true);
            _ = PumpAsync(server, client, towardsServer: false);
        }
    }

    private async Task PumpAsync(TcpClient from, TcpClient to, bool towardsServer)
    {
        var buffer = new byte[16 * 1024];
        try
        {
            var source = from.GetStream();
            var destination = to.GetStream();
            while (true)
            {
                var read = await source.ReadAsync(buffer, _closing.Token);
                if (read == 0)
                {
                    break;
                }

                if (towardsServer && _stalled.Task.IsCompleted)
                {
                    // Held until the proxy closes; the client's cancellation closes its side meanwhile.
                    await Task.Delay(Timeout.Infinite, _closing.Token);
                }

                await destination.WriteAsync(buffer.AsMemory(0, read), _closing.Token);
            }
        }
        catch (Exception ex) when (ex is IOException or SocketException or ObjectDisposedException or OperationCanceledException or InvalidOperationException)
        {
            // A side closed: the connection is over.
        }
        finally
        {
            from.Dispose();
            to.Dispose();
        }
    }
}
