using System.Globalization;
using BenchEngine.Workloads;

namespace BenchWeb.Uploads;

/// <summary>The dashboard's way of opening a run's documents (the engine's <c>sourceFactory</c>): as the engine does,
/// except that a failure to read an uploaded file says which file and row, and nothing of the file itself. CsvHelper's
/// messages quote the record they failed on, and file errors name the stored path; runs' failure reasons and logs get
/// neither.</summary>
internal static class UploadedCsvSource
{
    public static IDocumentSource Create(WorkloadOptions workload, TimeProvider time)
    {
        ArgumentNullException.ThrowIfNull(workload);
        if (workload.CsvFileId is not { } id || workload.Shape != DocumentShape.CsvFile)
        {
            return DocumentSourceFactory.Create(workload, time);
        }

        try
        {
            return new Guarded(DocumentSourceFactory.Create(workload, time), id);
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            throw Unreadable(id, 0, ex);
        }
    }

    // The engine's CSV errors say where in plain words and quote nothing: they pass. Any other message may name the
    // stored file, so only its kind is said.
    private static InvalidDataException Unreadable(long id, long rows, Exception cause) =>
        new(CsvErrorText.IsPlain(cause)
            ? string.Create(CultureInfo.InvariantCulture, $"Uploaded file {id} could not be read: {char.ToLowerInvariant(cause.Message[0])}{cause.Message[1..]}")
            : string.Create(CultureInfo.InvariantCulture, $"Uploaded file {id} could not be read {(rows == 0 ? "from its first row" : $"after row {rows:N0}")} ({cause.GetType().Name})."));

    private sealed class Guarded(IDocumentSource inner, long id) : IDocumentSource
    {
        private long _rows;

        public string Description => inner.Description;

        public bool TryNext(out Document document)
        {
            try
            {
                var next = inner.TryNext(out document);
                _rows += next ? 1 : 0;
                return next;
            }
            catch (Exception ex) when (ex is not OutOfMemoryException)
            {
                throw Unreadable(id, _rows, ex);
            }
        }

        public void MeasureWith(Func<Document, int> measure) => inner.MeasureWith(measure);

        public void Dispose() => inner.Dispose();
    }
}
