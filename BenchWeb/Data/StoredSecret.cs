namespace BenchWeb.Data;

/// <summary>An account key or connection string entered in the dashboard, encrypted with ASP.NET Core Data
/// Protection. Write-only: pages only learn whether one is set.</summary>
public sealed class StoredSecret
{
    public required string Name { get; set; }

    public required string ProtectedValue { get; set; }

    public DateTimeOffset UpdatedAt { get; set; }
}
