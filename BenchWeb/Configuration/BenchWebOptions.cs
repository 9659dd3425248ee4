using System.ComponentModel.DataAnnotations;

namespace BenchWeb.Configuration;

/// <summary>How the dashboard is deployed.</summary>
public enum DeploymentMode
{
    /// <summary>One instance: a SQLite file, in-process jobs, Data Protection keys in the data folder.</summary>
    Embedded,

    /// <summary>Several instances sharing PostgreSQL (data and jobs), Redis (live updates) and the keys (in the database).</summary>
    Shared,
}

/// <summary>The dashboard's settings (section <c>BenchWeb</c> of the configuration).</summary>
public sealed class BenchWebOptions : IValidatableObject
{
    public const string SectionName = "BenchWeb";

    /// <summary>Folder for the SQLite database and the Data Protection keys that encrypt stored secrets.
    /// Default: the user's local application data folder. On App Service keep it on local disk
    /// (e.g. <c>D:\local</c>): SQLite's locking breaks on the <c>/home</c> network share.</summary>
    public string? DataDirectory { get; set; }

    /// <summary>The largest request body the app reads (default 10 MB; an upload endpoint may allow more).</summary>
    [Range(1024, 1L << 40)]
    public long MaxRequestBodyBytes { get; set; } = 10L * 1024 * 1024;

    /// <summary>The largest CSV workload file that can be uploaded (default 512 MB: a month of BTS on-time flights is about
    /// 250 MB). Uploads are streamed to the data folder, never held in memory.</summary>
    [Range(1024, 1L << 40)]
    public long MaxUploadBytes { get; set; } = 512L * 1024 * 1024;

    /// <summary>How many runs may execute at once. One by default: two runs on one client measure each
    /// other as much as the target.</summary>
    [Range(1, 16)]
    public int MaxConcurrentRuns { get; set; } = 1;

    /// <summary>How many thread-pool worker threads the process may start at once, without the runtime's delay (default 32;
    /// 0 keeps the runtime's minimum, the processor count). Past its minimum the runtime adds about one thread every half
    /// second, so a burst (20 people opening a run's page, each page load, circuit and live second at once) would wait for
    /// threads; Azure's guidance for StackExchange.Redis clients raises it for the same reason. It is a floor, not a pool:
    /// threads are only started when there is work for them.</summary>
    [Range(0, 1_000, ErrorMessage = "BenchWeb:MinWorkerThreads must be between 0 and 1,000.")]
    public int MinWorkerThreads { get; set; } = 32;

    /// <summary><see cref="DeploymentMode.Embedded"/> (default): one instance, a SQLite file and Hangfire's in-memory
    /// storage. <see cref="DeploymentMode.Shared"/>: a fleet of instances on one PostgreSQL database (runs and Hangfire's
    /// jobs, connection string <c>BenchDb</c>), a Redis SignalR backplane (connection string <c>Redis</c>) and Data
    /// Protection keys kept in the database, so any instance executes runs and any shows them live.</summary>
    public DeploymentMode Mode { get; set; } = DeploymentMode.Embedded;

    /// <summary>This instance as an agent: its role, name and heartbeat.</summary>
    public AgentOptions Agent { get; set; } = new();

    /// <summary>Environment variables a profile may name as a key or connection string, for secrets set on the host rather
    /// than stored in the dashboard, by name: each for one target kind and setting, bound to one server
    /// (<see cref="EnvironmentSecretOptions"/>). Unlisted, a setting's own default (<c>TABLES_CONNECTION_STRING</c>…) may stand
    /// for that setting when its value names its server (a connection string); no other variable is read.</summary>
    public IDictionary<string, EnvironmentSecretOptions> EnvironmentSecrets { get; } = new Dictionary<string, EnvironmentSecretOptions>(StringComparer.Ordinal);

    /// <summary>Folder for the Data Protection keys that encrypt stored secrets. Default: <c>keys</c> in the
    /// data folder. Keep it apart from database backups: whoever has both can read the stored secrets.</summary>
    public string? KeysDirectory { get; set; }

    /// <summary>A certificate (.pfx) that encrypts the Data Protection keys at rest. Without one the keys are protected
    /// by DPAPI on Windows, and elsewhere by their folder's permissions only.</summary>
    public string? KeyCertificatePath { get; set; }

    /// <summary>The certificate's password: from configuration or the environment, never shown or logged.</summary>
    public string? KeyCertificatePassword { get; set; }

    /// <summary>The directory the dashboard uses, resolved.</summary>
    public string ResolveDataDirectory() =>
        Path.GetFullPath(DataDirectory is { Length: > 0 } dir
            ? dir
            : Path.Combine(Environment.GetFolderPath(Environment.SpecialFolder.LocalApplicationData, Environment.SpecialFolderOption.Create), "BenchWeb"));

    /// <summary>The entries of <see cref="EnvironmentSecrets"/> that cannot be used, each naming its setting: the app does not
    /// start with one, rather than refuse every launch that names it.</summary>
    public IEnumerable<ValidationResult> Validate(ValidationContext validationContext) =>
        EnvironmentSecrets.SelectMany(entry => entry.Value.Validate(entry.Key));
}
