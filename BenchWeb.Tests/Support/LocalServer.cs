using System.Diagnostics;
using System.Net;
using System.Net.Sockets;

namespace BenchWeb.Tests.Support;

/// <summary>A real server (from tools/servers, by node; or a program such as redis-server), started on a free loopback port
/// for the tests and stopped after.</summary>
public abstract class LocalServer : IAsyncLifetime
{
    private Process? _process;
    private string? _workingDirectory;
    private readonly System.Text.StringBuilder _output = new();

    public int Port { get; private set; }

    protected abstract string Name { get; }

    /// <summary>The folder the server runs in: a new temporary one, deleted when it stops.</summary>
    protected string WorkingDirectory => _workingDirectory ?? throw new InvalidOperationException("Not started.");

    /// <summary>The program to start; <c>node</c> unless the server is a program of its own.</summary>
    protected virtual string Program => "node";

    /// <summary>Arguments to <c>node</c>, given the servers folder and the port.</summary>
    protected virtual IEnumerable<string> NodeArguments(string serversDirectory, int port) =>
        throw new NotSupportedException($"{Name} is not started by node.");

    /// <summary>Arguments to <see cref="Program"/>, given the port; by default <see cref="NodeArguments"/>.</summary>
    protected virtual IEnumerable<string> Arguments(int port) => NodeArguments(FindServersDirectory(), port);

    public async Task InitializeAsync()
    {
        Port = FreePort();
        _workingDirectory = Directory.CreateTempSubdirectory("benchweb-" + Name + "-").FullName;
        await StartAsync();
    }

    /// <summary>Starts the server again on the same port after <see cref="Kill"/> (a crashed server brought back).</summary>
    public async Task RestartAsync()
    {
        Kill();
        _process?.Dispose();
        await StartAsync();
    }

    private async Task StartAsync()
    {
        var start = new ProcessStartInfo(Program)
        {
            WorkingDirectory = _workingDirectory,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (var argument in Arguments(Port))
        {
            start.ArgumentList.Add(argument);
        }

        _process = Process.Start(start) ?? throw new InvalidOperationException($"Could not start {Program} for {Name}.");
        _process.OutputDataReceived += (_, e) => Append(e.Data);
        _process.ErrorDataReceived += (_, e) => Append(e.Data);
        _process.BeginOutputReadLine();
        _process.BeginErrorReadLine();

        var deadline = DateTime.UtcNow.AddSeconds(60);
        while (DateTime.UtcNow < deadline)
        {
            if (_process.HasExited)
            {
                throw new InvalidOperationException($"{Name} exited with code {_process.ExitCode} before listening:\n{Output}");
            }

            try
            {
                using var client = new TcpClient();
                await client.ConnectAsync(IPAddress.Loopback, Port);
                return;
            }
            catch (SocketException)
            {
                await Task.Delay(100);
            }
        }

        throw new TimeoutException($"{Name} did not listen on port {Port} within 60 s:\n{Output}");
    }

    /// <summary>Kills the server at once, as a crash would: it answers nothing more.</summary>
    public void Kill()
    {
        if (_process is { HasExited: false })
        {
            _process.Kill(entireProcessTree: true);
            _process.WaitForExit(10_000);
        }
    }

    public Task DisposeAsync()
    {
        Kill();
        _process?.Dispose();
        if (_workingDirectory is not null)
        {
            try
            {
                Directory.Delete(_workingDirectory, recursive: true);
            }
            catch (IOException)
            {
                // A temp folder left behind is harmless.
            }
        }

        return Task.CompletedTask;
    }

    public string Output
    {
        get
        {
            lock (_output)
            {
                return _output.ToString();
            }
        }
    }

    private void Append(string? line)
    {
        if (line is null)
        {
            return;
        }

        lock (_output)
        {
            _output.AppendLine(line);
        }
    }

    /// <summary>tools/servers with its node_modules, installed by test.sh.</summary>
    public static string FindServersDirectory()
    {
        if (Environment.GetEnvironmentVariable("BENCHWEB_SERVERS_DIR") is { Length: > 0 } configured)
        {
            return configured;
        }

        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
        {
            var candidate = Path.Combine(dir.FullName, "tools", "servers");
            if (Directory.Exists(Path.Combine(candidate, "node_modules")))
            {
                return candidate;
            }
        }

        throw new InvalidOperationException("tools/servers/node_modules is missing: run ./test.sh, which installs the test servers.");
    }

    private static int FreePort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }
}
