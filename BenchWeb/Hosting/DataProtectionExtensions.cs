using System.Security.Cryptography.X509Certificates;
using BenchWeb.Configuration;
using BenchWeb.Guard.Secrets;
using Microsoft.AspNetCore.DataProtection;

namespace BenchWeb.Hosting;

/// <summary>ASP.NET Core Data Protection, which encrypts the keys and connection strings stored in the dashboard. Its
/// own keys live in a folder of the data directory, protected at rest by a certificate when one is configured, by DPAPI
/// on Windows, and otherwise by the folder's permissions alone (readable by the app's user only).</summary>
public static class DataProtectionExtensions
{
    /// <param name="services">The app's services.</param>
    /// <param name="options">The dashboard's settings.</param>
    /// <param name="dataDirectory">The data folder (the keys' folder in embedded mode).</param>
    /// <param name="inDatabase">Shared mode: the keys live in the shared database, so every instance decrypts what any
    /// stored (and the sign-in cookies of one are read by all).</param>
    public static IServiceCollection AddBenchWebDataProtection(this IServiceCollection services, BenchWebOptions options, string dataDirectory, bool inDatabase = false)
    {
        ArgumentNullException.ThrowIfNull(options);
        var dataProtection = services.AddDataProtection().SetApplicationName("BenchWeb");
        string location;
        if (inDatabase)
        {
            dataProtection.PersistKeysToDbContext<Data.BenchDbContext>();
            location = "the shared database (table DataProtectionKeys)";
        }
        else
        {
            var keys = new DirectoryInfo(options.KeysDirectory is { Length: > 0 } configured ? configured : Path.Combine(dataDirectory, "keys"));
            CreateForOwnerOnly(keys);
            dataProtection.PersistKeysToFileSystem(keys);
            location = keys.FullName;
        }

        KeyProtection protection;
        if (options.KeyCertificatePath is { Length: > 0 } certificate)
        {
            dataProtection.ProtectKeysWithCertificate(X509CertificateLoader.LoadPkcs12FromFile(certificate, options.KeyCertificatePassword));
            protection = KeyProtection.Certificate;
        }
        else if (inDatabase)
        {
            // DPAPI would tie the keys to one machine, and the other instances could not read them.
            protection = KeyProtection.None;
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

        services.AddSingleton(new KeyProtectionInfo(location, protection));
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
