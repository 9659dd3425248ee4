using System.Net.Http.Json;
using System.Text.Json;
using BenchEngine.Running;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Integration.Fleet;

/// <summary>
/// A fleet on this machine: a real PostgreSQL server and a real redis-server, and dashboard processes in shared mode on
/// them (each <c>dotnet BenchWeb.dll</c> as a user starts it), with a fast heartbeat so a lost agent is noticed within
/// seconds. Disposing stops the processes, then the servers.
/// </summary>
internal sealed class SharedModeFleet : IAsyncDisposable
{
    private readonly PostgresServer _postgres;
    private readonly RedisServer _redis;

    private SharedModeFleet(PostgresServer postgres, RedisServer redis, string database)
    {
        _postgres = postgres;
        _redis = redis;
        DatabaseConnectionString = database;
    }

    public string DatabaseConnectionString { get; }

    /// <summary>The fleet's Redis (the SignalR backplane), to kill and bring back.</summary>
    public RedisServer Redis => _redis;

    public List<DashboardProcess> Instances { get; } = [];

    public static async Task<SharedModeFleet> StartAsync()
    {
        var postgres = new PostgresServer();
        await postgres.InitializeAsync();
        var redis = await RedisServer.StartAsync();
        return new SharedModeFleet(postgres, redis, await postgres.CreateDatabaseAsync());
    }

    /// <summary>Starts an instance in shared mode; <paramref name="role"/> is All, Web or Agent.</summary>
    public async Task<DashboardProcess> AddAsync(string name, string role = "All", IReadOnlyDictionary<string, string>? environment = null)
    {
        var settings = new Dictionary<string, string>
        {
            ["BenchWeb__Mode"] = "Shared",
            ["ConnectionStrings__BenchDb"] = DatabaseConnectionString,
            ["ConnectionStrings__Redis"] = $"127.0.0.1:{_redis.Port}",
            ["BenchWeb__Agent__Role"] = role,
            ["BenchWeb__Agent__Name"] = name,
            ["BenchWeb__Agent__HeartbeatSeconds"] = "1",
            ["BenchWeb__Agent__LostAfterSeconds"] = "5",
            ["BenchWeb__Agent__StartLeadSeconds"] = "3",
        };
        foreach (var (key, value) in environment ?? new Dictionary<string, string>())
        {
            settings[key] = value;
        }

        var instance = await DashboardProcess.StartAsync(settings, port: null);
        Instances.Add(instance);
        return instance;
    }

    /// <summary>Waits until every instance that executes runs is listed alive.</summary>
    public static async Task WaitForAgentsAsync(HttpClient http, int count)
    {
        await Eventually.TrueAsync(async () =>
        {
            var agents = await http.GetFromJsonAsync<JsonElement>("api/agents");
            return agents.EnumerateArray().Count(a => a.GetProperty("state").GetString() == "Alive") >= count;
        }, TimeSpan.FromSeconds(60), $"{count} agents alive");
    }

    /// <summary>Launches the plan through the API; returns the run's number.</summary>
    public static async Task<long> LaunchAsync(HttpClient http, RunPlan plan, DashboardProcess? instance = null)
    {
        using var content = new StringContent($"{{\"plan\":{plan.ToJson()}}}", System.Text.Encoding.UTF8, "application/json");
        using var response = await http.PostAsync("api/runs", content);
        var body = await response.Content.ReadAsStringAsync();
        Assert.True(response.IsSuccessStatusCode, $"Launch answered {(int)response.StatusCode}: {body}\n{instance?.Output[^Math.Min(instance.Output.Length, 6000)..]}");
        return JsonDocument.Parse(body).RootElement.GetProperty("id").GetInt64();
    }

    /// <summary>The run as the API shows it, once it has ended.</summary>
    public static async Task<JsonElement> WaitForEndAsync(HttpClient http, long runId, TimeSpan timeout)
    {
        JsonElement run = default;
        await Eventually.TrueAsync(async () =>
        {
            run = await http.GetFromJsonAsync<JsonElement>($"api/runs/{runId}");
            return run.GetProperty("status").GetString() is not ("Queued" or "Running");
        }, timeout, $"run {runId} to end");
        return run;
    }

    /// <summary>One value from the fleet's database, read with the test's own connection.</summary>
    public static async Task<T> ScalarAsync<T>(Npgsql.NpgsqlConnection connection, string sql)
    {
        await using var command = new Npgsql.NpgsqlCommand(sql, connection);
        return (T)Convert.ChangeType((await command.ExecuteScalarAsync())!, typeof(T), System.Globalization.CultureInfo.InvariantCulture);
    }

    public async ValueTask DisposeAsync()
    {
        foreach (var instance in Instances)
        {
            await instance.DisposeAsync();
        }

        await _redis.DisposeAsync();
        await _postgres.DisposeAsync();
    }
}
