namespace BenchEngine.Workloads;

/// <summary>A record of a CSV file is longer than <see cref="RecordBoundedReader.Limit"/>.</summary>
internal sealed class RecordTooLongException : Exception
{
    public RecordTooLongException()
        : base("A record is longer than the limit.")
    {
    }

    public RecordTooLongException(string message)
        : base(message)
    {
    }

    public RecordTooLongException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}
