using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Guard.Administration;

namespace BenchWeb.Tests.Support;

/// <summary>For each installation limit, an administrator's setting and a plan just over it, named by the field a
/// refusal names (the theories pass the field, so their names stay readable).</summary>
public static class OverLimitCases
{
    public static TheoryData<string> Fields => new()
    {
        "Stop.DurationSeconds", "Stop.TotalDocuments", "Stop.DocumentsPerWorker", "Load.Concurrency", "Load.RatePerSecond", "Target.Cosmos.RequestUnits",
    };

    public static (InstallationSettings Limit, RunPlan Plan) For(string field)
    {
        var plan = new RunPlan { Name = $"over {field}", Load = new LoadOptions { Concurrency = 4 }, Stop = new StopOptions { DurationSeconds = 10 } };
        return field switch
        {
            "Stop.DurationSeconds" => (new InstallationSettings { MaxDurationSeconds = 30 }, plan with { Stop = new StopOptions { DurationSeconds = 31 } }),
            "Stop.TotalDocuments" => (new InstallationSettings { MaxDocuments = 1_000 }, plan with { Stop = new StopOptions { TotalDocuments = 1_001 } }),
            "Stop.DocumentsPerWorker" => (new InstallationSettings { MaxDocuments = 1_000 }, plan with { Stop = new StopOptions { DocumentsPerWorker = 251 } }),
            "Load.Concurrency" => (new InstallationSettings { MaxConcurrency = 5 }, plan with { Load = new LoadOptions { Concurrency = 6 } }),
            "Load.RatePerSecond" => (new InstallationSettings { MaxRatePerSecond = 50 }, plan with { Load = new LoadOptions { Model = LoadModel.OpenLoop, RatePerSecond = 51 } }),
            "Target.Cosmos.RequestUnits" => (new InstallationSettings { MaxRequestUnits = 1_000 }, plan with
            {
                // Refused before anything is queued: nothing connects to the account.
                Target = new TargetOptions { Kind = TargetKind.CosmosSql, Cosmos = new CosmosOptions { Endpoint = "https://acme.documents.azure.com:443/", RequestUnits = 1_100 } },
            }),
            _ => throw new ArgumentOutOfRangeException(nameof(field), field, "No such limit."),
        };
    }
}
