using System.Text.Json.Serialization;

namespace BenchEngine.Sweeps;

/// <summary>What ended the useful part of a series.</summary>
[JsonConverter(typeof(JsonStringEnumConverter<KneeLimit>))]
public enum KneeLimit
{
    /// <summary>No step crossed the rule within the values: the knee may lie beyond them.</summary>
    None,

    /// <summary>A step's p99 exceeded the rule's multiple of the series' best p99 (confirmed by the next step or a re-run).</summary>
    P99,

    /// <summary>A step's throttled share exceeded the rule's percentage (confirmed by the next step or a re-run).</summary>
    Throttling,

    /// <summary>The client, not the service, was the limit: the steps after the recommended one were client-limited
    /// (<see cref="SweepStepResult.ClientLimited"/>). Named after the CPU figure it once was, as stored sweeps say.</summary>
    ClientCpu,

    /// <summary>No step crossed the rule, but a step from the recommended one on used the provisioned RU/s (its headroom at
    /// most <see cref="KneeDetector.BudgetReachedHeadroomPercent"/>): the service's budget, not the values, was the limit.</summary>
    ProvisionedThroughput,
}
