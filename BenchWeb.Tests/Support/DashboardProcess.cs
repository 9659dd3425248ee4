using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using System.Text;

namespace BenchWeb.Tests.Support;

/// <summary>
/// The dashboard as a user starts it: <c>dotnet BenchWeb.dll --urls http://127.0.0.1:port</c> in a process of its
/// own, on a free loopback port, with a fresh data directory (SQLite database and Data Protection keys).
/// Disposing stops the process and deletes the directory. Used by the browser tests and the benchmark commands.
/// </summary>
public sealed partial class DashboardProcess : IAsyncDisposable
{
    private static readonly TimeSpan StartTimeout = TimeSpan.FromSeconds(90);

    private readonly Process _process;
    private readonly StringBuilder _output = new();
    private readonly SemaphoreSlim _signIn = new(1, 1);
    private CookieContainer? _session;

    private DashboardProcess(Process process, Uri baseAddress, string dataDirectory)
    {
        _process = process;
        BaseAddress = baseAddress;
        DataDirectory = dataDirectory;
    }

    /// <summary>The dashboard's root, e.g. <c>http://127.0.0.1:40123/</c>.</summary>
    public Uri BaseAddress { get; }

    public string DataDirectory { get; }

    /// <summary>The process's id (for its CPU time in the benchmarks).</summary>
    public int ProcessId => _process.Id;

    /// <summary>The SQLite database the dashboard keeps its profiles and runs in.</summary>
    public string DatabasePath => Path.Combine(DataDirectory, "benchweb.db");

    /// <summary>
    /// BenchWeb.dll beside the running assembly: a project that references BenchWeb gets its build output copied
    /// there, including the manifest that maps the static files (scripts, styles) to their source folders.
    /// </summary>
    public static string AppPath => Path.Combine(AppContext.BaseDirectory, "BenchWeb.dll");

    /// <summary>What the dashboard printed so far (for failure messages).</summary>
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

    /// <summary>The one-time administrator link the dashboard printed at start, as a user would copy it from the console.</summary>
    public async Task<Uri> AdminSignInLinkAsync()
    {
        var deadline = Stopwatch.StartNew();
        while (deadline.Elapsed < TimeSpan.FromSeconds(30))
        {
            if (SignInLinkPattern().Match(Output) is { Success: true } match)
            {
                return new Uri(match.Value);
            }

            await Task.Delay(100);
        }

        throw new TimeoutException($"The dashboard printed no sign-in link:\n{Output}");
    }

    /// <summary>An administrator's session: the printed link opened once; every client and browser shares its cookie.</summary>
    public async Task<CookieContainer> SessionAsync()
    {
        await _signIn.WaitAsync();
        try
        {
            if (_session is null)
            {
                var cookies = new CookieContainer();
                using var http = new HttpClient(new HttpClientHandler { CookieContainer = cookies, AllowAutoRedirect = false }) { BaseAddress = BaseAddress };
                using var response = await http.GetAsync(await AdminSignInLinkAsync());
                if (response.Headers.Location?.OriginalString is not "/" || cookies.GetCookies(BaseAddress).Count == 0)
                {
                    throw new InvalidOperationException($"Signing in with the printed link did not work: {(int)response.StatusCode} → {response.Headers.Location}.");
                }

                _session = cookies;
            }

            return _session;
        }
        finally
        {
            _signIn.Release();
        }
    }

    /// <summary>An HTTP client signed in as the administrator.</summary>
    public async Task<HttpClient> CreateSignedInClientAsync(TimeSpan? timeout = null) =>
        new(new HttpClientHandler { CookieContainer = await SessionAsync() }) { BaseAddress = BaseAddress, Timeout = timeout ?? TimeSpan.FromSeconds(100) };

    /// <summary>The session cookie, for a browser context.</summary>
    public async Task<Cookie> SessionCookieAsync() =>
        (await SessionAsync()).GetCookies(BaseAddress).Single(c => c.Name == "BenchWeb.Session");

    /// <summary>Starts the dashboard and returns once it answers HTTP requests.</summary>
    public static Task<DashboardProcess> StartAsync(CancellationToken cancellationToken = default) =>
        StartAsync(null, null, cancellationToken);

    /// <summary>Starts the dashboard with extra environment variables (configuration), on a given port or a free one.</summary>
    public static async Task<DashboardProcess> StartAsync(IReadOnlyDictionary<string, string>? environment, int? port, CancellationToken cancellationToken = default)
    {
        if (!File.Exists(AppPath))
        {
            throw new FileNotFoundException($"The dashboard's build output is missing beside {AppContext.BaseDirectory}.", AppPath);
        }

        var dataDirectory = Directory.CreateTempSubdirectory("benchweb-dashboard-").FullName;
        port ??= FreePort();
        var start = new ProcessStartInfo(DotnetHost())
        {
            WorkingDirectory = dataDirectory,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        start.ArgumentList.Add(AppPath);
        start.ArgumentList.Add("--urls");
        start.ArgumentList.Add($"http://127.0.0.1:{port}");
        start.Environment["BenchWeb__DataDirectory"] = dataDirectory;
        // As deployed: not Development, whatever the caller's environment says.
        start.Environment["ASPNETCORE_ENVIRONMENT"] = "Production";
        // A failing browser test then shows the server exception behind a circuit error, not a generic message.
        start.Environment["DetailedErrors"] = "true";
        start.Environment.Remove("DOTNET_ENVIRONMENT");
        start.Environment[LoopbackOnly.DisableCloudMetadataProbe] = "true";
        // The tests' Cosmos DB and Table servers listen on loopback.
        start.Environment["BenchWeb__Security__AllowLoopbackEndpoints"] = "true";
        foreach (var (name, value) in environment ?? new Dictionary<string, string>())
        {
            start.Environment[name] = value;
        }
        start.Environment.Remove("ASPNETCORE_URLS");

        var process = Process.Start(start) ?? throw new InvalidOperationException("Could not start the dashboard.");
        var dashboard = new DashboardProcess(process, new Uri($"http://127.0.0.1:{port}/"), dataDirectory);
        process.OutputDataReceived += (_, e) => dashboard.Append(e.Data);
        process.ErrorDataReceived += (_, e) => dashboard.Append(e.Data);
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        try
        {
            await dashboard.WaitUntilAnsweringAsync(cancellationToken);
            return dashboard;
        }
        catch
        {
            await dashboard.DisposeAsync();
            throw;
        }
    }

    /// <summary>Kills the process at once, as a crash or a lost machine would end it (no orderly stop).</summary>
    public void Kill()
    {
        if (!_process.HasExited)
        {
            _process.Kill(entireProcessTree: true);
            _process.WaitForExit(10_000);
        }
    }

    public async ValueTask DisposeAsync()
    {
        if (!_process.HasExited)
        {
            _process.Kill(entireProcessTree: true);
            using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(10));
            try
            {
                await _process.WaitForExitAsync(timeout.Token);
            }
            catch (OperationCanceledException)
            {
                // Killed but not yet reaped: nothing more to do from here.
            }
        }

        _process.Dispose();
        _signIn.Dispose();
        try
        {
            Directory.Delete(DataDirectory, recursive: true);
        }
        catch (IOException)
        {
            // A temporary folder left behind is harmless.
        }
        catch (UnauthorizedAccessException)
        {
        }
    }

    private async Task WaitUntilAnsweringAsync(CancellationToken cancellationToken)
    {
        using var http = new HttpClient { BaseAddress = BaseAddress, Timeout = TimeSpan.FromSeconds(10) };
        var deadline = Stopwatch.StartNew();
        while (deadline.Elapsed < StartTimeout)
        {
            if (_process.HasExited)
            {
                throw new InvalidOperationException($"The dashboard exited with code {_process.ExitCode} before answering:\n{Output}");
            }

            try
            {
                using var response = await http.GetAsync(new Uri("/", UriKind.Relative), cancellationToken);
                return;
            }
            catch (HttpRequestException)
            {
            }
            catch (TaskCanceledException) when (!cancellationToken.IsCancellationRequested)
            {
            }

            await Task.Delay(200, cancellationToken);
        }

        throw new TimeoutException($"The dashboard did not answer on {BaseAddress} within {StartTimeout.TotalSeconds:N0} s:\n{Output}");
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

    // The host running this code when it is dotnet itself (test host), else the dotnet on the PATH.
    internal static string DotnetHost() =>
        Environment.ProcessPath is { } path && Path.GetFileNameWithoutExtension(path) == "dotnet" ? path : "dotnet";

    [System.Text.RegularExpressions.GeneratedRegex(@"https?://\S+/signin/local\?token=bwa_[A-Za-z0-9_-]+")]
    private static partial System.Text.RegularExpressions.Regex SignInLinkPattern();

    /// <summary>A free loopback port (for a server that must know the dashboard's address before it starts).</summary>
    public static int FreePort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }
}
