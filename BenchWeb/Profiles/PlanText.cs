using System.Globalization;
using BenchEngine.Running;
using BenchEngine.Targets;

namespace BenchWeb.Profiles;

/// <summary>One-line descriptions of a plan's parts, for lists.</summary>
public static class PlanText
{
    public static string Target(RunPlan plan)
    {
        ArgumentNullException.ThrowIfNull(plan);
        var target = plan.Target;
        return target.Kind switch
        {
            TargetKind.Simulated => Invariant($"Simulated Cosmos DB (model), {target.Simulator.ProvisionedRequestUnits:N0} RU/s"),
            TargetKind.CosmosSql => Invariant($"Cosmos DB SQL, {target.Cosmos.ConnectionMode}{(target.Cosmos.Bulk ? ", bulk" : "")}{(target.Cosmos.RequestUnits is { } ru ? $", {ru:N0} RU/s" : "")}"),
            TargetKind.TableStorage => $"Table Storage, table {target.Tables.TableName}",
            TargetKind.CosmosTable => $"Cosmos DB Table API, table {target.Tables.TableName}",
            _ => "No-op (measures the client alone)",
        } + $" · {target.Operation.ToString().ToLowerInvariant()}";
    }

    public static string Workload(RunPlan plan)
    {
        ArgumentNullException.ThrowIfNull(plan);
        var workload = plan.Workload;
        var key = workload.PartitionKey is { } pk ? $", key {pk.Strategy}{(pk.Field is { } f ? $" ({f})" : "")}" : "";
        var file = workload.CsvFileId is { } id ? $" (uploaded file {id})" : "";
        return $"{workload.Shape}{file}{key}";
    }

    public static string Load(RunPlan plan)
    {
        ArgumentNullException.ThrowIfNull(plan);
        var load = plan.Load;
        var batch = load.BatchSize > 1 ? Invariant($", batches of {load.BatchSize}") : "";
        return load.Model switch
        {
            LoadModel.OpenLoop => Invariant($"open loop at {load.RatePerSecond:N0}/s (≤ {load.Concurrency} in flight){batch}"),
            LoadModel.Waves => Invariant($"waves of {load.Concurrency}{batch}"),
            LoadModel.Unbounded => "every write at once (unbounded)",
            _ => Invariant($"{load.Concurrency} workers, closed loop{batch}"),
        };
    }

    public static string Stop(RunPlan plan)
    {
        ArgumentNullException.ThrowIfNull(plan);
        var stop = plan.Stop;
        var parts = new List<string>();
        if (stop.TotalDocuments is { } total)
        {
            parts.Add(Invariant($"{total:N0} documents"));
        }

        if (stop.DocumentsPerWorker is { } perWorker)
        {
            parts.Add(Invariant($"{plan.Load.Concurrency} × {perWorker:N0}"));
        }

        if (stop.DurationSeconds is { } seconds)
        {
            parts.Add(Invariant($"{seconds:N0} s"));
        }

        if (stop.AutoStop is not null)
        {
            parts.Add("auto-stop");
        }

        return parts.Count == 0 ? "end of file" : string.Join(" or ", parts);
    }

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
