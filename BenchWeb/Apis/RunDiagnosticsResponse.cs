using BenchEngine.Diagnostics;

namespace BenchWeb.Apis;

/// <summary>A run's slowest requests with their diagnostics (<c>GET /api/runs/{id}/diagnostics</c>), in the order of their
/// seconds, slowest first within a second.</summary>
/// <param name="RunId">The run.</param>
/// <param name="Second">The second asked for, or null for all of them.</param>
/// <param name="Entries">The entries.</param>
public sealed record RunDiagnosticsResponse(long RunId, int? Second, IReadOnlyList<SlowRequest> Entries);
