using System.Diagnostics;
using BenchEngine.Metrics;
using BenchEngine.Targets;
using BenchEngine.Workloads;

namespace BenchEngine.Running;

/// <summary>
/// Runs the engine's hot path — documents, the executor with its retry pipeline, the recorder and its histograms, a
/// second's close — against the no-op target before the run's clock starts, so the first measured second runs optimised
/// code rather than the just-in-time compiler's first tier. Nothing of it is measured or sent anywhere.
/// </summary>
internal static class EngineWarmUp
{
    /// <summary>How many requests between two closes of the warm-up's own seconds.</summary>
    private const int RequestsPerClose = 256;

    public static async Task RunAsync(RunPlan plan, Func<Document, int> measure, TimeProvider time, TimeSpan length, CancellationToken cancellationToken)
    {
        if (length <= TimeSpan.Zero)
        {
            return;
        }

        // A file is read by the run alone; a generated workload is made again from its own seed, untouched by this.
        IDocumentSource? source = null;
        if (plan.Workload.Shape != DocumentShape.CsvFile)
        {
            source = DocumentSourceFactory.Create(plan.Workload, time);
            source.MeasureWith(measure);
        }

        using (source)
        {
            await using var target = new NoOpTarget();
            using var stop = new StopSignal(time);
            var recorder = new RunRecorder(keepSecondHistograms: plan.Workload.Shard is not null || plan.Load.Stages.Count > 0);
            var executor = new OperationExecutor(target, plan.Target.Operation, plan.Load.Throttling, recorder, time, stop, CancellationToken.None);
            var batch = Math.Max(1, plan.Load.BatchSize);
            var documents = new List<Document>(batch);
            var watch = Stopwatch.StartNew();
            for (var n = 0; watch.Elapsed < length && !cancellationToken.IsCancellationRequested; n++)
            {
                documents.Clear();
                while (documents.Count < batch && source is not null && source.TryNext(out var document))
                {
                    documents.Add(document);
                }

                if (documents.Count == 0)
                {
                    documents.Add(new Document("warm-up", "warm-up", []));
                }

                await executor.ExecuteAsync(documents, time.GetTimestamp()).ConfigureAwait(false);
                if (n % RequestsPerClose == 0)
                {
                    recorder.CloseSecond(n / RequestsPerClose, TimeSpan.Zero, TimeSpan.FromSeconds(1), 0);
                }
            }
        }
    }
}
