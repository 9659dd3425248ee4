using Microsoft.Extensions.Diagnostics.HealthChecks;
using StackExchange.Redis;

namespace BenchWeb.Health;

/// <summary>Ready only when the Redis server of <c>ConnectionStrings:Redis</c> (shared mode's SignalR backplane) answers
/// PING. One connection is kept for the checks and reconnects by itself; a command fails at once while it is down
/// rather than waiting in its backlog.</summary>
internal sealed class RedisBackplaneHealthCheck(string configuration) : IHealthCheck, IAsyncDisposable
{
    /// <summary>The connection string's name, under <c>ConnectionStrings</c>.</summary>
    public const string ConnectionStringName = "Redis";

    private readonly SemaphoreSlim _connecting = new(1, 1);
    private volatile ConnectionMultiplexer? _connection;

    public async Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken cancellationToken = default)
    {
        var connection = await ConnectAsync(cancellationToken);
        await connection.GetDatabase().PingAsync().WaitAsync(cancellationToken);
        return HealthCheckResult.Healthy();
    }

    private async Task<ConnectionMultiplexer> ConnectAsync(CancellationToken cancellationToken)
    {
        if (_connection is { } existing)
        {
            return existing;
        }

        await _connecting.WaitAsync(cancellationToken);
        try
        {
            if (_connection is null)
            {
                var options = ConfigurationOptions.Parse(configuration);
                // Made even when the server is down (then PING fails and the check says so), and kept reconnecting.
                options.AbortOnConnectFail = false;
                options.BacklogPolicy = BacklogPolicy.FailFast;
                // Not abandoned on cancellation, which would leave a connection no one disposes: the first attempt
                // ends within the configuration's connect timeout (5 s unless it says otherwise).
                _connection = await ConnectionMultiplexer.ConnectAsync(options);
            }

            return _connection;
        }
        finally
        {
            _connecting.Release();
        }
    }

    public async ValueTask DisposeAsync()
    {
        if (_connection is not null)
        {
            await _connection.DisposeAsync();
        }

        _connecting.Dispose();
    }
}
