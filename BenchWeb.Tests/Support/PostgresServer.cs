using System.Diagnostics;
using Npgsql;

namespace BenchWeb.Tests.Support;

/// <summary>
/// A real PostgreSQL server from Debian's packages (test.sh installs <c>postgresql</c>), on a free loopback port with a
/// data folder of its own: <c>initdb</c>, then <c>pg_ctl start</c>, as the <c>postgres</c> user when the tests run as root
/// (PostgreSQL refuses to run as root). Each test takes a database of its own (<see cref="CreateDatabaseAsync"/>).
/// </summary>
public sealed class PostgresServer : IAsyncLifetime
{
    private string? _folder;

    public int Port { get; private set; }

    /// <summary>PostgreSQL's programs: <c>BENCHWEB_POSTGRES_BIN</c>, else the newest under /usr/lib/postgresql.</summary>
    public static string? BinDirectory =>
        Environment.GetEnvironmentVariable("BENCHWEB_POSTGRES_BIN") is { Length: > 0 } configured ? configured
        : Directory.Exists("/usr/lib/postgresql") ? Directory.GetDirectories("/usr/lib/postgresql").Select(d => Path.Combine(d, "bin")).Where(Directory.Exists).OrderBy(d => d, StringComparer.Ordinal).LastOrDefault()
        : null;

    public async Task InitializeAsync()
    {
        var bin = BinDirectory ?? throw new InvalidOperationException("PostgreSQL is not installed: run the tests through test.sh, which installs Debian's postgresql package.");
        _folder = Directory.CreateTempSubdirectory("benchweb-pg-").FullName;
        Port = DashboardProcess.FreePort();
        if (IsRoot)
        {
            await RunAsync("chown", ["-R", "postgres", _folder]);
        }

        var data = Path.Combine(_folder, "data");
        await RunAsPostgresAsync(Path.Combine(bin, "initdb"), ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync"]);
        await RunAsPostgresAsync(Path.Combine(bin, "pg_ctl"), ["-D", data, "-o", $"-p {Port} -k {_folder} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300", "-l", Path.Combine(_folder, "log"), "-w", "start"]);
    }

    /// <summary>A connection string for the server's <c>postgres</c> superuser and the database given.</summary>
    public string ConnectionString(string database) =>
        new NpgsqlConnectionStringBuilder { Host = "127.0.0.1", Port = Port, Username = "postgres", Database = database, Pooling = true }.ConnectionString;

    /// <summary>A new, empty database; returns its connection string.</summary>
    public async Task<string> CreateDatabaseAsync()
    {
        var name = "benchweb_" + Guid.NewGuid().ToString("N")[..12];
        await using var connection = new NpgsqlConnection(ConnectionString("postgres"));
        await connection.OpenAsync();
        await using var command = new NpgsqlCommand($"CREATE DATABASE {name}", connection);
        await command.ExecuteNonQueryAsync();
        return ConnectionString(name);
    }

    public async Task DisposeAsync()
    {
        if (_folder is null || BinDirectory is not { } bin)
        {
            return;
        }

        try
        {
            await RunAsPostgresAsync(Path.Combine(bin, "pg_ctl"), ["-D", Path.Combine(_folder, "data"), "-m", "immediate", "-w", "stop"]);
        }
        finally
        {
            Directory.Delete(_folder, recursive: true);
        }
    }

    private static bool IsRoot => Environment.UserName == "root";

    private static Task RunAsPostgresAsync(string program, IReadOnlyList<string> arguments) =>
        IsRoot ? RunAsync("runuser", ["-u", "postgres", "--", program, .. arguments]) : RunAsync(program, arguments);

    private static async Task RunAsync(string program, IReadOnlyList<string> arguments)
    {
        var start = new ProcessStartInfo(program) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        using var process = Process.Start(start)!;
        var output = process.StandardOutput.ReadToEndAsync();
        var error = process.StandardError.ReadToEndAsync();
        await process.WaitForExitAsync();
        if (process.ExitCode != 0)
        {
            throw new InvalidOperationException($"{Path.GetFileName(program)} {string.Join(' ', arguments)} exited with {process.ExitCode}: {await output}{await error}");
        }
    }
}
