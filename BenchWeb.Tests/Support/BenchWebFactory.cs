using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http.Connections;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.AspNetCore.TestHost;
using Microsoft.AspNetCore.SignalR.Client;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace BenchWeb.Tests.Support;

/// <summary>The app hosted in the test process on the framework's test server, with a data folder of its own
/// (deleted on dispose).</summary>
public sealed class BenchWebFactory(IReadOnlyDictionary<string, string?>? settings = null, Action<IServiceCollection>? services = null) : WebApplicationFactory<Program>
{
    public string DataDirectory { get; } = DashboardHost.NewDataDirectory();

    public T Get<T>()
        where T : notnull => Services.GetRequiredService<T>();

    /// <summary>An HTTP client of the test server signed in with a new API token of this role.</summary>
    public async Task<HttpClient> CreateClientAsync(string role) => CreateClient().WithToken(await Services.CreateTokenAsync(role));

    /// <summary>A SignalR client connected to the app's hub over the test server's WebSockets, signed in with the token
    /// (as a pipeline's client would; the browser's page uses its session cookie).</summary>
    public HubConnection CreateHubConnection(string path, string? token) =>
        new HubConnectionBuilder()
            .WithUrl(new Uri(Server.BaseAddress, path.TrimStart('/')), options =>
            {
                options.Transports = HttpTransportType.WebSockets;
                options.SkipNegotiation = true;
                options.WebSocketFactory = (context, cancellationToken) =>
                {
                    var client = Server.CreateWebSocketClient();
                    if (token is not null)
                    {
                        client.ConfigureRequest = request => request.Headers.Authorization = $"Bearer {token}";
                    }

                    return new ValueTask<System.Net.WebSockets.WebSocket>(client.ConnectAsync(context.Uri, cancellationToken));
                };
            })
            .AddJsonProtocol(json => json.PayloadSerializerOptions.Converters.Add(new System.Text.Json.Serialization.JsonStringEnumConverter()))
            .Build();

    protected override void ConfigureWebHost(IWebHostBuilder builder)
    {
        ArgumentNullException.ThrowIfNull(builder);
        builder.UseEnvironment("Test");
        builder.UseSetting("BenchWeb:DataDirectory", DataDirectory);
        // The tests' Cosmos DB and Table servers listen on loopback; a test about the refusal sets it back to false.
        builder.UseSetting("BenchWeb:Security:AllowLoopbackEndpoints", "true");
        foreach (var (key, value) in settings ?? new Dictionary<string, string?>())
        {
            builder.UseSetting(key, value);
        }

        builder.ConfigureLogging(logging => logging.ClearProviders());
        builder.ConfigureServices(s => s.AddSingleton(sp => BenchWeb.Guard.Security.LocalAdminLink.Create(sp, TextWriter.Null)));
        if (services is not null)
        {
            builder.ConfigureTestServices(services);
        }
    }

    public override async ValueTask DisposeAsync()
    {
        await base.DisposeAsync();
        DashboardHost.DeleteDataDirectory(DataDirectory);
    }
}
