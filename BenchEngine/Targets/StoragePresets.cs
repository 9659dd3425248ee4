using BenchEngine.Presets;
using BenchEngine.Running;
using BenchEngine.Workloads;

namespace BenchEngine.Targets;

/// <summary>The rows of the storage services' latency and throughput comparison tables as presets: ~1 KB items written
/// by a closed loop of workers until a count. None has a published figure of its own: each is a row to run against
/// one's own account.</summary>
internal static class StoragePresets
{
    /// <summary>Each item's size as the target sends it: "1 KB" in the tables' terms.</summary>
    public const int ItemBytes = 1_024;

    /// <summary>A row: <paramref name="workers"/> closed-loop workers creating <paramref name="items"/> ~1 KB small records.</summary>
    public static Preset Row(TargetKind kind, string id, string title, int workers, long items, string summary, string tells) => new()
    {
        Id = id,
        Title = title,
        Summary = summary,
        Tells = tells,
        Study = PresetStudy.ComparisonTables,
        OriginalResult = "No original figure: a row of the comparison table to run against your account",
        Plan = new RunPlan
        {
            Name = $"{id}: {title}",
            Target = new TargetOptions { Kind = kind, Operation = WriteOperation.Create },
            Workload = new WorkloadOptions { Shape = DocumentShape.SmallDto, TargetSizeBytes = ItemBytes },
            Load = new LoadOptions { Model = LoadModel.ClosedLoop, Concurrency = workers },
            Stop = new StopOptions { TotalDocuments = items },
        },
    };
}
