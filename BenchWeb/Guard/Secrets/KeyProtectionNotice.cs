namespace BenchWeb.Guard.Secrets;

/// <summary>Says once, at start-up, where the Data Protection keys are and how they are protected — in place of the
/// framework's generic warning about unencrypted keys, with what to do about it.</summary>
public sealed partial class KeyProtectionNotice(KeyProtectionInfo keys, ILogger<KeyProtectionNotice> logger) : IHostedService
{
    public Task StartAsync(CancellationToken cancellationToken)
    {
        if (keys.Protection == KeyProtection.None)
        {
            LogInDatabase(logger, keys.Folder);
        }
        else if (keys.Protection == KeyProtection.FolderPermissions)
        {
            LogUnencrypted(logger, keys.Folder);
        }
        else
        {
            LogProtected(logger, keys.Folder, keys.Protection);
        }

        return Task.CompletedTask;
    }

    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    [LoggerMessage(Level = LogLevel.Warning, Message = "The keys that encrypt stored secrets are kept in {Folder}, readable by this user only but not encrypted at rest. To encrypt them, set BenchWeb:KeyCertificatePath (a .pfx) and BenchWeb:KeyCertificatePassword.")]
    private static partial void LogUnencrypted(ILogger logger, string folder);

    [LoggerMessage(Level = LogLevel.Warning, Message = "The keys that encrypt stored secrets are kept in {Location}, not encrypted at rest: whoever reads the database can read the stored secrets. Set BenchWeb:KeyCertificatePath (a .pfx every instance has) and BenchWeb:KeyCertificatePassword.")]
    private static partial void LogInDatabase(ILogger logger, string location);

    [LoggerMessage(Level = LogLevel.Information, Message = "The keys that encrypt stored secrets are kept in {Folder}, encrypted at rest ({Protection}).")]
    private static partial void LogProtected(ILogger logger, string folder, KeyProtection protection);
}
