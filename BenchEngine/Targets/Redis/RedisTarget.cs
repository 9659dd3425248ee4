using System.Globalization;
using System.Net;
using System.Security.Authentication;
using BenchEngine.Workloads;
using StackExchange.Redis;
using StackExchange.Redis.Configuration;
using StackExchange.Redis.Profiling;

namespace BenchEngine.Targets;

/// <summary>
/// Azure Cache for Redis through StackExchange.Redis: one SET per document, a batch sent as one pipeline. Nothing is
/// retried or queued behind the run's back: a write issued while the connection is down fails at once
/// (<see cref="BacklogPolicy.FailFast"/>), and writes in flight when it drops fail with it; the client reconnects in the
/// background, and writes issued after that succeed again.
/// </summary>
/// <remarks>Redis answers with no HTTP status. So that a run's errors group as other targets' do, the outcomes carry the
/// status of the same meaning: 200 for a SET that landed, 409 for a key that exists (create), 500 for an error the server
/// answered (its error code, e.g. "500 OOM"), and 0 when no answer came (a timeout, a lost connection).</remarks>
internal sealed class RedisTarget : IInsertTarget
{
    private const int Stored = 200;
    private const int KeyExists = 409;
    private const int ServerError = 500;
    private const int LongestServerCode = 20;

    private readonly RedisOptions _options;
    private readonly TargetContext _context;
    // The most profiled commands a slow request's text lists (a pipeline's first ones).
    private const int ListedCommands = 10;

    private ConnectionMultiplexer? _connection;
    private IDatabase? _database;

    // The write under way's profiling session, where StackExchange.Redis records the timings of the commands it sends: one
    // per write, read only if the write turns out to be one of the run's slowest (DescribeRequest).
    private readonly AsyncLocal<ProfilingSession?> _profiling = new();

    public RedisTarget(RedisOptions options, TargetContext context)
    {
        _options = options;
        _context = context;
        Description = $"{TargetKind.Redis.DisplayName()} · {(options.UseTls ? "TLS" : "no TLS")} · database {options.Database}";
    }

    public string Description { get; }

    public bool IsModel => false;

    public double? ProvisionedRequestUnits => null;

    /// <summary>Redis has no request units: its RU figures are "n/a".</summary>
    public bool ReportsRequestUnits => false;

    public async Task InitializeAsync(CancellationToken cancellationToken)
    {
        var host = _options.Host is { } named && RedisModule.IsHostName(named)
            ? named
            : throw new TargetConfigurationException("The Redis host is not a host name or IP address.");
        var where = $"{host}:{_options.Port}";
        var endpoint = RedisModule.EndpointOf(host, _options.Port, _options.UseTls);

        // Before anything connects: the policy knows URLs, so a TLS server is checked as https and a plain one as http.
        if (_context.Endpoints.Check(endpoint) is { } refusal)
        {
            throw new TargetConfigurationException(
                $"Cannot use the Redis server {where} (checked as {endpoint.GetLeftPart(UriPartial.Authority)}: TLS as https, plain Redis as http): {refusal}");
        }

        var accessKey = _options.UseAccessKey ? _context.RequireSecret(_options.AccessKeySecret) : null;
        var configuration = Configure(host, accessKey);
        ConnectionMultiplexer connection;
        try
        {
            // The client takes no token: the wait ends on cancellation, and a connection that opens after it is closed.
            var connecting = ConnectionMultiplexer.ConnectAsync(configuration);
            try
            {
                connection = await connecting.WaitAsync(cancellationToken).ConfigureAwait(false);
            }
            catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
            {
                _ = connecting.ContinueWith(static t => t.Result.Dispose(), CancellationToken.None, TaskContinuationOptions.OnlyOnRanToCompletion, TaskScheduler.Default);
                throw;
            }
        }
        catch (RedisConnectionException ex) when (ex.FailureType == ConnectionFailureType.AuthenticationFailure)
        {
            // The client reports a refused TLS handshake and a refused sign-in alike; the handshake leaves its own exception.
            throw new TargetConfigurationException(
                Find<AuthenticationException>(ex) is not null
                    ? $"Cannot connect to Redis at {where}: the TLS handshake failed (the server's certificate was not accepted, or the port does not speak TLS)."
                    : accessKey is null
                        ? $"Cannot connect to Redis at {where}: the server wants an access key. Turn on 'Sign in with an access key' and name its secret."
                        : $"Cannot connect to Redis at {where}: the server refused the access key in the secret '{_options.AccessKeySecret}'.",
                ex);
        }
        catch (Exception ex) when (ex is not (TargetConfigurationException or OutOfMemoryException)
            && !(ex is OperationCanceledException && cancellationToken.IsCancellationRequested))
        {
            throw new TargetConfigurationException($"Cannot connect to Redis at {where}: {Describe(ex)}", ex);
        }

        _connection = connection;
        connection.RegisterProfiler(() => _profiling.Value);
        var database = connection.GetDatabase(_options.Database);
        try
        {
            // One read that needs the sign-in and the database: a server without that database, or one that wants a key
            // the plan does not give, fails here rather than in every write.
            await database.KeyExistsAsync(_options.KeyPrefix).WaitAsync(cancellationToken).ConfigureAwait(false);
        }
        catch (RedisServerException ex) when (ServerCode(ex) is "NOAUTH" or "WRONGPASS")
        {
            throw new TargetConfigurationException($"Cannot use Redis at {where}: it wants an access key this plan does not give ({ServerCode(ex)}).", ex);
        }
        catch (Exception ex) when (ex is not OutOfMemoryException && !(ex is OperationCanceledException && cancellationToken.IsCancellationRequested))
        {
            throw new TargetConfigurationException($"Cannot use database {_options.Database} of Redis at {where}: {Describe(ex)}", ex);
        }

        _database = database;
    }

    public async Task<OperationOutcome> WriteAsync(IReadOnlyList<Document> documents, WriteOperation operation, CancellationToken cancellationToken)
    {
        var database = _database ?? throw new InvalidOperationException("InitializeAsync first.");
        cancellationToken.ThrowIfCancellationRequested();
        var when = operation == WriteOperation.Create ? When.NotExists : When.Always;
        if (documents.Count == 1 && _options.ProfileCommands)
        {
            // StackExchange.Redis profiles a single command; the commands of a batch (a pipeline) it does not.
            var session = new ProfilingSession();
            _profiling.Value = session;
            return Profiled(await WriteOneAsync(database, documents[0], when, cancellationToken).ConfigureAwait(false), session);
        }

        if (documents.Count == 1)
        {
            return await WriteOneAsync(database, documents[0], when, cancellationToken).ConfigureAwait(false);
        }

        var writes = new Task<bool>[documents.Count];
        var sizes = new int[documents.Count];
        try
        {
            // One pipeline: every SET is written to the connection together, and the answers come back in order.
            var batch = database.CreateBatch();
            for (var i = 0; i < documents.Count; i++)
            {
                writes[i] = batch.StringSetAsync(Key(documents[i]), Value(documents[i], out sizes[i]), when: when);
            }

            batch.Execute();
        }
        catch (RedisException ex)
        {
            // No connection to send on: the client refuses the whole pipeline (it groups the SETs by connection first) and
            // fails at once rather than queue it, so nothing was sent.
            return OperationOutcome.Failed(0, 0, Describe(ex)) with { Diagnostics = ex };
        }

        var all = Task.WhenAll(writes);
        try
        {
            await all.WaitAsync(cancellationToken).ConfigureAwait(false);
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // Cut off by the run's stop: abandoned, not failed. The SETs cannot be called back; their answers are dropped.
            _ = all.ContinueWith(static t => t.Exception, CancellationToken.None, TaskContinuationOptions.OnlyOnFaulted, TaskScheduler.Default);
            throw new OperationCanceledException("The write was cancelled in flight.", cancellationToken);
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            // Each SET's own result is read below.
        }

        return Tally(writes, sizes);
    }

    /// <summary>The outcome with what describes it should it be slow: the write's profiling session, and its failure.</summary>
    private static OperationOutcome Profiled(OperationOutcome outcome, ProfilingSession session) =>
        outcome with { Diagnostics = new ProfiledWrite(session, outcome.Diagnostics as Exception) };

    /// <summary>A write's profiling session (its commands' timings, finished only when it is described) and its failure.</summary>
    private sealed record ProfiledWrite(ProfilingSession Session, Exception? Failure);

    /// <summary>One SET, awaited as it is (a cancellable wait only when the run's stop can cut it off): no arrays, no
    /// <see cref="Task.WhenAll(Task[])"/>, the same outcomes as a pipeline of one.</summary>
    private async Task<OperationOutcome> WriteOneAsync(IDatabase database, Document document, When when, CancellationToken cancellationToken)
    {
        Task<bool> write;
        int size;
        try
        {
            write = database.StringSetAsync(Key(document), Value(document, out size), when: when);
        }
        catch (RedisException ex)
        {
            return OperationOutcome.Failed(0, 0, Describe(ex)) with { Diagnostics = ex };
        }

        try
        {
            var set = cancellationToken.CanBeCanceled
                ? await write.WaitAsync(cancellationToken).ConfigureAwait(false)
                : await write.ConfigureAwait(false);
            return set ? OperationOutcome.Ok(Stored, 1, 0, size) : Tally([write], [size]);
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            _ = write.ContinueWith(static t => t.Exception, CancellationToken.None, TaskContinuationOptions.OnlyOnFaulted, TaskScheduler.Default);
            throw new OperationCanceledException("The write was cancelled in flight.", cancellationToken);
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            return Tally([write], [size]);
        }
    }

    /// <summary>
    /// A slow SET as the client saw it: the command, the engine's latency and attempts, the server and the failure, and
    /// StackExchange.Redis's profile of the command (<see cref="IProfiledCommand"/>: created, queued, sent, answered, completed,
    /// and a retransmission after a moved slot) when the plan asks for it (<see cref="RedisOptions.ProfileCommands"/>), with the
    /// connection's queues when the second closed. Then every single write is profiled (an entry kept in memory only until the
    /// write is described or dropped), and the profile read only for the slow ones; the client does not profile the commands
    /// of a batch (a pipeline). Server-side times are Redis's own <c>SLOWLOG</c>, which this does not read.
    /// </summary>
    public RequestDescription DescribeRequest(in SlowRequestFacts request)
    {
        var where = $"{_options.Host}:{_options.Port}";
        var written = request.Outcome.Diagnostics as ProfiledWrite;
        var failure = (written?.Failure ?? request.Outcome.Diagnostics as Exception) is { } exception ? $"{exception.GetType().Name}: {Describe(exception)}" : null;
        var queues = "unknown (not connected)";
        if (_connection is { } connection)
        {
            var interactive = connection.GetCounters().Interactive;
            queues = FormattableString.Invariant(
                $"{interactive.PendingUnsentItems} waiting to be sent, {interactive.SentItemsAwaitingResponse} sent and awaiting their answer, {interactive.ResponsesAwaitingAsyncCompletion} answered and awaiting completion");
        }

        var commands = written is null ? [] : written.Session.FinishProfiling().ToList();
        var profile = new System.Text.StringBuilder();
        foreach (var command in commands.Take(ListedCommands))
        {
            profile.Append(CultureInfo.InvariantCulture, $"\n  {Profile(command)}");
        }

        if (commands.Count > ListedCommands)
        {
            profile.Append(CultureInfo.InvariantCulture, $"\n  … and {commands.Count - ListedCommands:N0} more");
        }

        var slowest = commands.Count == 0 ? null : commands.MaxBy(c => c.ElapsedTime);
        var summary = $"{request.OutcomeText} · {request.LatencyText} · SET to {where}"
            + (slowest is null ? "" : $" · server answered in {Milliseconds(slowest.SentToResponse)} (sent after {Milliseconds(slowest.CreationToEnqueued + slowest.EnqueuedToSending)})")
            + $" · {request.AttemptsText}";
        var text = $"""
            outcome: {request.OutcomeText}
            latency: {request.LatencyText} (from the intended start)
            attempts: {request.AttemptsText}
            command: SET, one per document (a batch is one pipeline); keys that landed: {request.Outcome.Documents}
            server: {where}, {(_options.UseTls ? "TLS" : "no TLS")}, database {_options.Database}
            {(failure is null ? "failure: none" : "failure: " + failure)}
            profiled commands ({commands.Count:N0}; StackExchange.Redis: created → queued → sent → answered → completed):{(commands.Count > 0 ? profile.ToString() : written is not null ? " none recorded (the write failed before sending)" : !_options.ProfileCommands ? " off (turn on “Profile each command”, Target.Redis.ProfileCommands, to record each SET's stages; it costs the client about 12 % more CPU a SET)" : " none (StackExchange.Redis does not profile the commands of a batch, which is one pipeline; a batch of one document is profiled)")}
            the connection's queues when the second closed (not when the request was sent): {queues}
            server-side times: Redis's SLOWLOG, not read here.
            """;
        return new RequestDescription(summary, text);
    }

    // One profiled command in a line: where it went and how long each stage took.
    private static string Profile(IProfiledCommand command) =>
        $"{command.Command} to {command.EndPoint} (database {command.Db}), created {command.CommandCreated.ToString("HH:mm:ss.fff", CultureInfo.InvariantCulture)} UTC: "
        + $"queued after {Milliseconds(command.CreationToEnqueued)}, sent after {Milliseconds(command.EnqueuedToSending)}, "
        + $"answered after {Milliseconds(command.SentToResponse)}, completed after {Milliseconds(command.ResponseToCompletion)}; "
        + $"in all {Milliseconds(command.ElapsedTime)}"
        + (command.RetransmissionOf is null ? "" : $"; a retransmission ({command.RetransmissionReason})");

    private static string Milliseconds(TimeSpan span) => span.TotalMilliseconds.ToString("N2", CultureInfo.InvariantCulture) + " ms";

    public async Task<long> CountAsync(CancellationToken cancellationToken)
    {
        var connection = _connection ?? throw new InvalidOperationException("InitializeAsync first.");
        long count = 0;
        foreach (var server in connection.GetServers())
        {
            // Every primary holds its own keys (a clustered cache has several); replicas hold copies. A primary that cannot
            // be reached fails the count rather than leaving its keys out.
            if (server.IsReplica)
            {
                continue;
            }

            await foreach (var _ in server.KeysAsync(_options.Database, _options.KeyPrefix + "*", pageSize: 1_000).WithCancellation(cancellationToken).ConfigureAwait(false))
            {
                count++;
            }
        }

        return count;
    }

    public async ValueTask DisposeAsync()
    {
        if (_connection is { } connection)
        {
            await connection.DisposeAsync().ConfigureAwait(false);
        }
    }

    /// <summary>The outcome of a pipeline of SETs, each of which landed or failed on its own: ok when all landed; otherwise
    /// an error that still counts the keys that landed, so that what a run counts is what the cache holds.</summary>
    internal static OperationOutcome Tally(IReadOnlyList<Task<bool>> writes, IReadOnlyList<int> sizes)
    {
        var landed = 0;
        long bytes = 0;
        var existing = 0;
        Exception? failure = null;
        for (var i = 0; i < writes.Count; i++)
        {
            var write = writes[i];
            if (write.IsCompletedSuccessfully)
            {
                if (write.Result)
                {
                    landed++;
                    bytes += sizes[i];
                }
                else
                {
                    existing++;
                }
            }
            else
            {
                failure ??= write.Exception?.InnerException ?? new TaskCanceledException();
            }
        }

        if (failure is null && existing == 0)
        {
            return OperationOutcome.Ok(Stored, landed, 0, bytes);
        }

        var (status, error) = failure is null
            ? (KeyExists, ErrorText.Status(KeyExists, "KeyExists"))
            : (failure is RedisServerException ? ServerError : 0, Describe(failure));
        return OperationOutcome.PartlyFailed(status, landed, bytes, writes.Count == 1 ? error : $"{error} ({writes.Count - landed:N0} of {writes.Count:N0} keys did not land)")
            with { Diagnostics = failure };
    }

    /// <summary>A failure in words that never quote the server: its error code alone ("500 OOM"), or what kind of failure
    /// left no answer.</summary>
    internal static string Describe(Exception exception) => exception switch
    {
        _ when EndpointRefusedException.Find(exception) is not null => ErrorText.NoResponse(exception),
        RedisServerException server => ErrorText.Status(ServerError, ServerCode(server) ?? "ServerError"),
        RedisTimeoutException or TimeoutException => $"no response: the request timed out ({exception.GetType().Name})",
        RedisConnectionException connection => $"no response: {nameof(RedisConnectionException)} ({connection.FailureType})",
        _ => ErrorText.NoResponse(exception),
    };

    /// <summary>The error code a Redis error answer starts with (<c>OOM</c>, <c>BUSY</c>, <c>LOADING</c>, <c>NOAUTH</c>):
    /// capital letters only, or null; the rest of the answer is the server's own text and is never passed on.</summary>
    internal static string? ServerCode(RedisServerException exception)
    {
        var message = exception.Message.AsSpan();
        var end = message.IndexOf(' ');
        var code = end < 0 ? message : message[..end];
        return code.Length is > 0 and <= LongestServerCode && !code.ContainsAnyExceptInRange('A', 'Z') ? code.ToString() : null;
    }

    private static T? Find<T>(Exception? exception)
        where T : Exception
    {
        for (var e = exception; e is not null; e = e.InnerException)
        {
            if (e is T found)
            {
                return found;
            }
        }

        return null;
    }

    private ConfigurationOptions Configure(string host, string? accessKey)
    {
        var configuration = new ConfigurationOptions
        {
            EndPoints = { { host, _options.Port } },
            Password = accessKey,
            Ssl = _options.UseTls,
            SslHost = _options.UseTls ? host : null,
            DefaultDatabase = _options.Database,
            ClientName = "BenchWeb",
            ConnectTimeout = _options.ConnectTimeoutMs,
            ConnectRetry = 1,

            // The answers are read on the thread pool rather than on the client's own socket threads: a SET's completion no
            // longer hops from a dedicated reader thread to the pool (a third of the client's CPU was waking and switching
            // threads). With the single-SET path below: 76,000 → 122,000 single SETs a second (docs/benchmarks.md, 15).
            SocketManager = SocketManager.ThreadPool,

            // Fail when the first connection fails, rather than hand back a client that keeps trying in the background.
            AbortOnConnectFail = true,

            // A write issued while disconnected fails at once instead of waiting in a queue to be sent after a reconnect,
            // and writes in flight when a connection drops fail with it: every failure is seen and counted.
            BacklogPolicy = BacklogPolicy.FailFast,

            // Key names stay out of the client's own exception texts (none of which are passed on anyway).
            IncludeDetailInExceptions = false,
            IncludePerformanceCountersInExceptions = false,

            // Every connection the client opens (the first, a reconnect, a cluster's other nodes) is checked first.
            Tunnel = new PolicedTunnel(_context.Endpoints, _options.UseTls),
        };
        if (_options.UseTls && _options.AcceptAnyServerCertificate)
        {
            // Only when a profile asks for it, which validation allows for a server on this machine only.
#pragma warning disable CA5359
            configuration.CertificateValidation += static (_, _, _, _) => true;
#pragma warning restore CA5359
        }

        return configuration;
    }

    private RedisKey Key(Document document) => _options.KeyPrefix + document.Id;

    private static RedisValue Value(Document document, out int size)
    {
        var body = DocumentJson.ToArray(document);
        size = body.Length;
        return body;
    }

    /// <summary>Checks each connection the client is about to open against the endpoint policy, as the URL the module maps
    /// a Redis server to (https with TLS, http without); a refused one is never opened.</summary>
    private sealed class PolicedTunnel(EndpointPolicy policy, bool useTls) : Tunnel
    {
        public override ValueTask<EndPoint?> GetSocketConnectEndpointAsync(EndPoint endpoint, CancellationToken cancellationToken)
        {
            var (host, port) = endpoint switch
            {
                DnsEndPoint named => (named.Host, named.Port),
                IPEndPoint address => (address.Address.ToString(), address.Port),
                _ => throw new EndpointRefusedException("Only host names and IP addresses can be checked."),
            };
            if (policy.Check(RedisModule.EndpointOf(host, port, useTls)) is { } refusal)
            {
                throw new EndpointRefusedException(refusal);
            }

            return base.GetSocketConnectEndpointAsync(endpoint, cancellationToken);
        }
    }
}
