namespace BenchWeb.Data;

/// <summary>An account key or connection string entered in the dashboard, encrypted with ASP.NET Core Data
/// Protection. Write-only: pages only learn whether one is set.</summary>
public sealed class StoredSecret
{
    public required string Name { get; set; }

    public required string ProtectedValue { get; set; }

    public DateTimeOffset UpdatedAt { get; set; }

    /// <summary>For a connection string: the table endpoint it points at (scheme and host, no key), read when it was
    /// stored, so the allow-list and the audit log know it without decrypting the secret.</summary>
    public string? Endpoint { get; set; }
}
