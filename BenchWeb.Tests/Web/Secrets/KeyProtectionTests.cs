using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using BenchWeb.Guard.Secrets;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Web.Secrets;

/// <summary>The Data Protection keys that encrypt stored secrets: encrypted at rest with a configured certificate, and
/// otherwise in a folder only the app's user may read.</summary>
[IntegrationTest]
public sealed class KeyProtectionTests
{
    [Fact]
    public async Task Keys_WithACertificate_AreEncryptedAtRest_AndStoredSecretsSurviveARestart()
    {
        var dataDirectory = DashboardHost.NewDataDirectory();
        var certificate = Path.Combine(dataDirectory, "keys.pfx");
        using (var rsa = RSA.Create(2048))
        {
            var request = new CertificateRequest("CN=BenchWeb key protection test", rsa, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1);
            using var created = request.CreateSelfSigned(DateTimeOffset.UtcNow.AddDays(-1), DateTimeOffset.UtcNow.AddDays(30));
            await File.WriteAllBytesAsync(certificate, created.Export(X509ContentType.Pfx, "pfx password"));
        }

        var settings = new Dictionary<string, string?> { ["BenchWeb:KeyCertificatePath"] = certificate, ["BenchWeb:KeyCertificatePassword"] = "pfx password" };
        try
        {
            await using (var first = await DashboardHost.StartAsync(dataDirectory, settings))
            {
                await first.Get<SecretStore>().SetAsync("profile-1-cosmos-key", "the stored value", _ => null, TestActors.Admin, CancellationToken.None);
                Assert.Equal(KeyProtection.Certificate, first.Get<KeyProtectionInfo>().Protection);
            }

            var key = await File.ReadAllTextAsync(Assert.Single(Directory.GetFiles(Path.Combine(dataDirectory, "keys"), "key-*.xml")));
            Assert.Contains("<encryptedSecret", key, StringComparison.Ordinal);
            Assert.DoesNotContain("<masterKey", key, StringComparison.Ordinal);

            await using var second = await DashboardHost.StartAsync(dataDirectory, settings);
            Assert.Equal("the stored value", (await second.Get<SecretStore>().CreateResolverAsync(1, new BenchEngine.Running.RunPlan(), CancellationToken.None))("profile-1-cosmos-key"));
        }
        finally
        {
            DashboardHost.DeleteDataDirectory(dataDirectory);
        }
    }

    [SkippableFact]
    public async Task Keys_WithoutACertificate_LiveInAFolderOnlyTheAppsUserMayRead()
    {
        Skip.If(OperatingSystem.IsWindows(), "Windows protects the keys with DPAPI; folder modes are a Unix notion.");
        await using var host = await DashboardHost.StartAsync();

        var keys = host.Get<KeyProtectionInfo>();

        Assert.Equal(KeyProtection.FolderPermissions, keys.Protection);
        if (!OperatingSystem.IsWindows())
        {
            Assert.Equal(UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute, File.GetUnixFileMode(keys.Folder));
        }
    }
}
