namespace BenchWeb.Guard.Secrets;

/// <summary>Where the Data Protection keys are and how they are protected at rest.</summary>
public sealed record KeyProtectionInfo(string Folder, KeyProtection Protection);
