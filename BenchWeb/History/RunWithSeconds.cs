using BenchWeb.Data;

namespace BenchWeb.History;

/// <summary>A run with every second it saved (<see cref="RunEntity.Seconds"/>, in order) and the name of the sweep it is a
/// step of (null for a run on its own), as the run page loads it.</summary>
public sealed record RunWithSeconds(RunEntity Run, string? SweepName);
