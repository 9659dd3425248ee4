using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;

namespace BenchWeb.Tests.Support;

/// <summary>What the storage targets' tests share: a context holding one connection string, opening a target, a plan.</summary>
public static class StorageTargets
{
    /// <summary>A context whose only secret is <paramref name="secret"/>, holding <paramref name="connectionString"/>.</summary>
    public static TargetContext Context(string secret, string connectionString) =>
        new(TimeProvider.System, name => name == secret ? connectionString : null);

    /// <summary>A context whose only secret is <paramref name="server"/>'s, holding its connection string or
    /// <paramref name="connectionString"/>.</summary>
    public static TargetContext Context(IAzuriteStorage server, string? connectionString = null) =>
        Context(server.Secret, connectionString ?? server.ConnectionString);

    /// <summary>A new container or queue name.</summary>
    public static string NewName() => "r" + Guid.NewGuid().ToString("N")[..16];

    /// <summary>The target of <paramref name="options"/>, initialized.</summary>
    public static async Task<IInsertTarget> OpenAsync(TargetOptions options, TargetContext context)
    {
        var target = TargetRegistry.Create(options, context);
        try
        {
            await target.InitializeAsync(CancellationToken.None);
            return target;
        }
        catch
        {
            await target.DisposeAsync();
            throw;
        }
    }

    /// <summary>A closed loop of ~1 KB small records, point writes, until <paramref name="documents"/>.</summary>
    public static RunPlan Plan(TargetOptions target, int concurrency, long documents) => new()
    {
        Name = "storage " + target.Kind.Name,
        Target = target,
        Workload = new WorkloadOptions { Shape = DocumentShape.SmallDto, TargetSizeBytes = 1_024 },
        Load = new LoadOptions { Concurrency = concurrency },
        Stop = new StopOptions { TotalDocuments = documents },
    };
}
