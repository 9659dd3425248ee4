using System.Reflection;
using System.Security.Cryptography;
using BenchWeb.Configuration;
using BenchWeb.Data;

namespace BenchWeb.Execution;

/// <summary>This process as an agent: a random id per start (a restarted instance is a new agent, so its old runs are
/// told apart from its new ones), the name the dashboard shows, and what it runs on.</summary>
public sealed class AgentIdentity
{
    public AgentIdentity(AgentOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        Id = Convert.ToHexStringLower(RandomNumberGenerator.GetBytes(8));
        Name = options.Name is { Length: > 0 } name ? name.Trim() : Environment.MachineName;
        Role = options.Role;
        Region = options.Region is { Length: > 0 } region ? region : Environment.GetEnvironmentVariable("REGION_NAME");
        InstanceId = Environment.GetEnvironmentVariable("WEBSITE_INSTANCE_ID") is { Length: > 0 } instance ? Truncate(instance, 100) : null;
        Cores = Environment.ProcessorCount;
        MemoryBytes = GC.GetGCMemoryInfo().TotalAvailableMemoryBytes;
        Version = typeof(AgentIdentity).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion is { } version
            ? Truncate(version, 50)
            : null;
    }

    public string Id { get; }

    public string Name { get; }

    public AgentRole Role { get; }

    public string? Region { get; }

    public string? InstanceId { get; }

    public int Cores { get; }

    public long MemoryBytes { get; }

    public string? Version { get; }

    /// <summary>The Hangfire queue of jobs meant for this agent alone.</summary>
    public string Queue => AgentEntity.QueueOf(Id);

    private static string Truncate(string text, int length) => text.Length <= length ? text : text[..length];
}
