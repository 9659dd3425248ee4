using BenchEngine.Running;

namespace BenchWeb.Hubs;

/// <summary>A run changed status (queued, started, ended); watchers reload its row.</summary>
public sealed record RunStatusChange(long RunId, RunStatus Status, string? Message);
