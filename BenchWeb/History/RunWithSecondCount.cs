using BenchWeb.Data;

namespace BenchWeb.History;

/// <summary>A run's row and how many seconds it has saved, as the HTTP API describes a run.</summary>
public sealed record RunWithSecondCount(RunEntity Run, int SecondsRecorded);
