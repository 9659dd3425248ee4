namespace BenchEngine.Workloads;

/// <summary>
/// The ~200 B performance-counter sample of the seed experiments: a typical telemetry write, small
/// and with a timestamp. The time field is not called <c>Timestamp</c>, a name Table storage reserves.
/// </summary>
internal sealed class PerformanceDataGenerator(Random random, TimeProvider timeProvider) : IFieldSource
{
    public const string Summary = "Performance data (6 fields, ~200 B)";

    private static readonly string[] Names = ["MachineName", "CounterName", "Instance", "Value", "Unit", "SampledAt"];

    private static readonly string[] Machines = [.. Enumerable.Range(1, 16).Select(i => $"bench-vm-{i:00}")];

    private static readonly Counter[] Counters =
    [
        new("% Processor Time", "Percent", 100, ["_Total", "0", "1", "2", "3"]),
        new("Available MBytes", "Megabytes", 16_384, ["_Total"]),
        new("Disk Bytes/sec", "BytesPerSecond", 250_000_000, ["_Total", "0 C:", "1 D:"]),
        new("Bytes Total/sec", "BytesPerSecond", 125_000_000, ["Ethernet", "vEthernet"]),
        new("Requests/sec", "CountPerSecond", 5_000, ["_Total", "w3wp"]),
    ];

    private readonly Random _random = random;
    private readonly TimeProvider _timeProvider = timeProvider;

    public string Description => Summary;

    public IReadOnlyList<string> FieldNames => Names;

    public bool TryFill(long sequence, Span<KeyValuePair<string, object?>> fields)
    {
        var counter = Counters[_random.Next(Counters.Length)];
        var row = new FieldWriter(fields);
        row.Add("MachineName", Machines[_random.Next(Machines.Length)]);
        row.Add("CounterName", counter.Name);
        row.Add("Instance", counter.Instances[_random.Next(counter.Instances.Length)]);
        row.Add("Value", Math.Round(_random.NextDouble() * counter.Maximum, 2));
        row.Add("Unit", counter.Unit);
        row.Add("SampledAt", _timeProvider.GetUtcNow());
        return true;
    }

    public void Dispose()
    {
    }

    private sealed record Counter(string Name, string Unit, double Maximum, string[] Instances);
}
