namespace BenchWeb.Guard.Secrets;

/// <summary>How the Data Protection keys are protected at rest.</summary>
public enum KeyProtection
{
    Certificate,
    Dpapi,
    FolderPermissions,

    /// <summary>Kept in the shared database without a certificate: readable by whoever reads the database.</summary>
    None,
}
