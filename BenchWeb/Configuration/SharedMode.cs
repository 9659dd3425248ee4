using Microsoft.Extensions.Options;
using Npgsql;

namespace BenchWeb.Configuration;

/// <summary>Shared mode's settings, read and checked once at start: the PostgreSQL database every instance keeps its
/// data and Hangfire's jobs in (connection string <c>BenchDb</c>) and the Redis server of the SignalR backplane
/// (connection string <c>Redis</c>). A missing or malformed one stops the start with a message naming it.</summary>
public sealed class SharedMode
{
    public const string DatabaseConnectionName = "BenchDb";

    public const string RedisConnectionName = "Redis";

    private SharedMode(string database, string redis)
    {
        DatabaseConnectionString = database;
        RedisConfiguration = redis;
    }

    public string DatabaseConnectionString { get; }

    /// <summary>A StackExchange.Redis configuration string (<c>host:6379,password=…,ssl=true</c>).</summary>
    public string RedisConfiguration { get; }

    /// <summary>The shared-mode settings, or null in embedded mode.</summary>
    /// <exception cref="OptionsValidationException">Shared mode without a usable database or Redis connection string, or
    /// a role other than <c>All</c> in embedded mode.</exception>
    public static SharedMode? Read(IConfiguration configuration, BenchWebOptions options)
    {
        ArgumentNullException.ThrowIfNull(configuration);
        ArgumentNullException.ThrowIfNull(options);
        if (options.Mode == DeploymentMode.Embedded)
        {
            if (options.Agent.Role != AgentRole.All)
            {
                throw Invalid($"{BenchWebOptions.SectionName}:Agent:Role is {options.Agent.Role}; an instance with one role needs the others beside it: set {BenchWebOptions.SectionName}:Mode to Shared.");
            }

            return null;
        }

        var database = configuration.GetConnectionString(DatabaseConnectionName);
        if (string.IsNullOrWhiteSpace(database))
        {
            throw Invalid($"Shared mode keeps runs and jobs in PostgreSQL: set ConnectionStrings:{DatabaseConnectionName} (ConnectionStrings__{DatabaseConnectionName}) to an Npgsql connection string.");
        }

        try
        {
            _ = new NpgsqlConnectionStringBuilder(database);
        }
        catch (ArgumentException)
        {
            // The message would quote the string, password included.
            throw Invalid($"ConnectionStrings:{DatabaseConnectionName} is not an Npgsql (PostgreSQL) connection string.");
        }

        var redis = configuration.GetConnectionString(RedisConnectionName);
        if (string.IsNullOrWhiteSpace(redis))
        {
            throw Invalid($"Shared mode pushes live seconds between instances through Redis: set ConnectionStrings:{RedisConnectionName} (ConnectionStrings__{RedisConnectionName}), e.g. host:6379,password=…,ssl=true.");
        }

        try
        {
            _ = StackExchange.Redis.ConfigurationOptions.Parse(redis);
        }
        catch (ArgumentException)
        {
            throw Invalid($"ConnectionStrings:{RedisConnectionName} is not a StackExchange.Redis configuration string.");
        }

        return new SharedMode(database, redis);
    }

    private static OptionsValidationException Invalid(string message) =>
        new(BenchWebOptions.SectionName, typeof(BenchWebOptions), [message]);
}
