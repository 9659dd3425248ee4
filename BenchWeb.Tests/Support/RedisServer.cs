using System.Globalization;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using StackExchange.Redis;

namespace BenchWeb.Tests.Support;

/// <summary>
/// Debian's redis-server on a free loopback port, keeping nothing on disk: plain, with a password, or with TLS only (a
/// self-signed certificate made for it). Its keys are counted through a client of the test's own
/// (<see cref="CountKeysAsync"/>), never through the target under test.
/// </summary>
public sealed class RedisServer : LocalServer
{
    private readonly string? _password;
    private readonly bool _tls;

    /// <summary>A plain server without a password (the collection fixture).</summary>
    public RedisServer()
        : this(password: null, tls: false)
    {
    }

    /// <param name="password">The server's password (<c>requirepass</c>); null for none.</param>
    /// <param name="tls">Listen with TLS only, with a new self-signed certificate for 127.0.0.1.</param>
    private RedisServer(string? password, bool tls)
    {
        _password = password;
        _tls = tls;
    }

    public string? Password => _password;

    public bool UsesTls => _tls;

    protected override string Name => "redis";

    /// <summary>From <c>BENCHWEB_REDIS_SERVER</c>, else on the PATH; test.sh installs Debian's package when missing.</summary>
    protected override string Program =>
        Environment.GetEnvironmentVariable("BENCHWEB_REDIS_SERVER") is { Length: > 0 } configured ? configured : "redis-server";

    /// <summary>Starts a server of its own for one test (one to stop, or with a password or TLS); dispose it after.</summary>
    public static async Task<RedisServer> StartAsync(string? password = null, bool tls = false)
    {
        var server = new RedisServer(password, tls);
        await server.InitializeAsync();
        return server;
    }

    /// <summary>A client of the test's own, with admin commands (INFO) allowed.</summary>
    public Task<ConnectionMultiplexer> ConnectAsync()
    {
        var options = new ConfigurationOptions
        {
            EndPoints = { { "127.0.0.1", Port } },
            Password = _password,
            Ssl = _tls,
            AllowAdmin = true,
            AbortOnConnectFail = true,
        };
        if (_tls)
        {
            // The server's own self-signed certificate, on this machine.
#pragma warning disable CA5359
            options.CertificateValidation += static (_, _, _, _) => true;
#pragma warning restore CA5359
        }

        return ConnectionMultiplexer.ConnectAsync(options);
    }

    /// <summary>The keys starting with <paramref name="prefix"/> in a database, counted by SCAN from the test's own client.</summary>
    public async Task<long> CountKeysAsync(string prefix, int database = 0)
    {
        await using var connection = await ConnectAsync();
        long count = 0;
        await foreach (var _ in connection.GetServer("127.0.0.1", Port).KeysAsync(database, prefix + "*", pageSize: 1_000))
        {
            count++;
        }

        return count;
    }

    /// <summary>The connections the server has accepted since it started (INFO's <c>total_connections_received</c>).</summary>
    public static async Task<long> ConnectionsReceivedAsync(ConnectionMultiplexer connection)
    {
        var stats = (await connection.GetServers()[0].InfoAsync("stats")).SelectMany(group => group);
        return long.Parse(stats.Single(pair => pair.Key == "total_connections_received").Value, CultureInfo.InvariantCulture);
    }

    protected override IEnumerable<string> Arguments(int port)
    {
        var number = port.ToString(CultureInfo.InvariantCulture);
        List<string> arguments = ["--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", WorkingDirectory, "--loglevel", "warning"];
        if (_tls)
        {
            var (certificate, key) = WriteSelfSignedCertificate(WorkingDirectory);
            arguments.AddRange(["--port", "0", "--tls-port", number, "--tls-cert-file", certificate, "--tls-key-file", key, "--tls-auth-clients", "no"]);
        }
        else
        {
            arguments.AddRange(["--port", number]);
        }

        if (_password is not null)
        {
            arguments.AddRange(["--requirepass", _password]);
        }

        return arguments;
    }

    /// <summary>A self-signed certificate for 127.0.0.1 and localhost, and its key, as PEM files.</summary>
    private static (string Certificate, string Key) WriteSelfSignedCertificate(string directory)
    {
        using var key = ECDsa.Create(ECCurve.NamedCurves.nistP256);
        var request = new CertificateRequest("CN=127.0.0.1", key, HashAlgorithmName.SHA256);
        var names = new SubjectAlternativeNameBuilder();
        names.AddIpAddress(System.Net.IPAddress.Loopback);
        names.AddDnsName("localhost");
        request.CertificateExtensions.Add(names.Build());
        using var certificate = request.CreateSelfSigned(DateTimeOffset.UtcNow.AddMinutes(-5), DateTimeOffset.UtcNow.AddDays(1));
        var certificatePath = Path.Combine(directory, "redis.crt");
        var keyPath = Path.Combine(directory, "redis.key");
        File.WriteAllText(certificatePath, certificate.ExportCertificatePem());
        File.WriteAllText(keyPath, key.ExportPkcs8PrivateKeyPem());
        return (certificatePath, keyPath);
    }
}
