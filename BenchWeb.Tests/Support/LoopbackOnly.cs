using System.Runtime.CompilerServices;

namespace BenchWeb.Tests.Support;

/// <summary>Tests send traffic to loopback only. The Cosmos SDK probes the Azure VM metadata address
/// (169.254.169.254) once per process, the first time a client is made, unless this variable says not to; it is
/// set before any test runs, whatever the command that started them, and passed to the processes tests start.</summary>
public static class LoopbackOnly
{
    public const string DisableCloudMetadataProbe = "COSMOS_DISABLE_IMDS_ACCESS";

    [ModuleInitializer]
    [System.Diagnostics.CodeAnalysis.SuppressMessage("Usage", "CA2255", Justification = "The test assembly's own process-wide setting, needed before any test's first Cosmos client.")]
    internal static void Initialize() => Environment.SetEnvironmentVariable(DisableCloudMetadataProbe, "true");
}
