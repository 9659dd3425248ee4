using System.Runtime.InteropServices;

namespace BenchEngine.Metrics;

/// <summary>The machine a run's client ran on, recorded with every run so runs on different machines compare honestly.</summary>
public sealed record ClientEnvironment
{
    public int ProcessorCount { get; init; }

    public long TotalMemoryBytes { get; init; }

    public string OperatingSystem { get; init; } = "";

    public string Runtime { get; init; } = "";

    public string MachineName { get; init; } = "";

    public string ProcessArchitecture { get; init; } = "";

    /// <summary>Azure App Service facts (<c>WEBSITE_SKU</c>, <c>WEBSITE_INSTANCE_ID</c>, <c>WEBSITE_SITE_NAME</c>,
    /// <c>REGION_NAME</c>) when running there. <c>WEBSITE_OWNER_NAME</c> is never read: it holds the subscription id.</summary>
    public IReadOnlyDictionary<string, string> AppService { get; init; } = new Dictionary<string, string>();

    public static readonly IReadOnlyList<string> AppServiceVariables =
        ["WEBSITE_SKU", "WEBSITE_INSTANCE_ID", "WEBSITE_SITE_NAME", "REGION_NAME"];

    /// <summary>Reads the current process's environment.</summary>
    public static ClientEnvironment Capture(Func<string, string?>? environmentVariable = null)
    {
        environmentVariable ??= Environment.GetEnvironmentVariable;
        var appService = new Dictionary<string, string>();
        foreach (var name in AppServiceVariables)
        {
            if (environmentVariable(name) is { Length: > 0 } value)
            {
                appService[name] = value;
            }
        }

        return new ClientEnvironment
        {
            ProcessorCount = Environment.ProcessorCount,
            TotalMemoryBytes = GC.GetGCMemoryInfo().TotalAvailableMemoryBytes,
            OperatingSystem = RuntimeInformation.OSDescription,
            Runtime = RuntimeInformation.FrameworkDescription,
            MachineName = Environment.MachineName,
            ProcessArchitecture = RuntimeInformation.ProcessArchitecture.ToString(),
            AppService = appService,
        };
    }
}
