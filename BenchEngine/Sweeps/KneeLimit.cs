using System.Text.Json.Serialization;

namespace BenchEngine.Sweeps;

/// <summary>What ended the useful part of a series.</summary>
[JsonConverter(typeof(JsonStringEnumConverter<KneeLimit>))]
public enum KneeLimit
{
    /// <summary>No step crossed the rule within the values: the knee may lie beyond them.</summary>
    None,

    /// <summary>A step's p99 exceeded the rule's multiple of the series' best p99.</summary>
    P99,

    /// <summary>A step's throttled share exceeded the rule's percentage.</summary>
    Throttling,

    /// <summary>A step's client reached the rule's CPU percentage: the client, not the service, is the limit.</summary>
    ClientCpu,
}
