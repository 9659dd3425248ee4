using BenchEngine.Workloads;
using BenchmarkDotNet.Attributes;

namespace HotPath;

/// <summary>What the workload itself costs: the next document of each shape (its fields, id and partition key), and a GUID
/// id as the engine makes it against <see cref="Guid.NewGuid"/>.</summary>
[MemoryDiagnoser]
[SimpleJob(launchCount: 1, warmupCount: 3, iterationCount: 10)]
public class DocumentBenchmarks
{
    private const int Documents = 100_000;

    private IDocumentSource? _source;
    private readonly UniqueIds _ids = UniqueIds.Draw();
    private long _sequence;

    [Params(DocumentShape.SmallDto, DocumentShape.PerformanceData, DocumentShape.BulkRecord, DocumentShape.Flight)]
    public DocumentShape Shape { get; set; }

    [IterationSetup(Target = nameof(NextDocument))]
    public void Open()
    {
        _source?.Dispose();
        _source = DocumentSourceFactory.Create(new WorkloadOptions { Shape = Shape }, TimeProvider.System);
    }

    [GlobalCleanup]
    public void Close() => _source?.Dispose();

    [Benchmark(OperationsPerInvoke = Documents)]
    public int NextDocument()
    {
        var fields = 0;
        for (var i = 0; i < Documents; i++)
        {
            _source!.TryNext(out var document);
            fields += document.Fields.Count;
        }

        return fields;
    }

    [Benchmark]
    public string IdAsTheEngineMakesIt() => _ids.Next(_sequence++);

    [Benchmark(Baseline = true)]
    public string IdFromGuidNewGuid() => Guid.NewGuid().ToString();
}
