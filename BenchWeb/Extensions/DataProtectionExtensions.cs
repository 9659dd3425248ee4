using System.Security.Cryptography.X509Certificates;
using Microsoft.AspNetCore.DataProtection;

namespace BenchWeb.Extensions;

/// <summary>ASP.NET Core Data Protection, which encrypts the keys and connection strings stored in the dashboard. Its
/// own keys live in a folder of the data directory, protected at rest by a certificate when one is configured, by DPAPI
/// on Windows, and otherwise by the folder's permissions alone (readable by the app's user only).</summary>
public static class DataProtectionExtensions
{
    public static IServiceCollection AddBenchWebDataProtection(this IServiceCollection services, BenchWebOptions options, string dataDirectory)
    {
        ArgumentNullException.ThrowIfNull(options);
        var keys = new DirectoryInfo(options.KeysDirectory is { Length: > 0 } configured ? configured : Path.Combine(dataDirectory, "keys"));
        CreateForOwnerOnly(keys);
        var dataProtection = services.AddDataProtection()
            .SetApplicationName("BenchWeb")
            .PersistKeysToFileSystem(keys);
        KeyProtection protection;
        if (options.KeyCertificatePath is { Length: > 0 } certificate)
        {
            dataProtection.ProtectKeysWithCertificate(X509CertificateLoader.LoadPkcs12FromFile(certificate, options.KeyCertificatePassword));
            protection = KeyProtection.Certificate;
        }
        else if (OperatingSystem.IsWindows())
        {
            // On Windows (e.g. App Service) the key ring is encrypted to the machine's account.
            dataProtection.ProtectKeysWithDpapi();
            protection = KeyProtection.Dpapi;
        }
        else
        {
            protection = KeyProtection.FolderPermissions;
        }

        services.AddSingleton(new KeyProtectionInfo(keys.FullName, protection));
        services.AddHostedService<KeyProtectionNotice>();
        return services;
    }

    /// <summary>The folder, readable and writable by the app's user only (on Unix; Windows folders inherit their ACLs).</summary>
    private static void CreateForOwnerOnly(DirectoryInfo folder)
    {
        if (OperatingSystem.IsWindows())
        {
            folder.Create();
            return;
        }

        const UnixFileMode OwnerOnly = UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute;
        Directory.CreateDirectory(folder.FullName, OwnerOnly);
        File.SetUnixFileMode(folder.FullName, OwnerOnly);
    }
}

/// <summary>How the Data Protection keys are protected at rest.</summary>
public enum KeyProtection
{
    Certificate,
    Dpapi,
    FolderPermissions,
}
