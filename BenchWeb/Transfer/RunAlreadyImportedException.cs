namespace BenchWeb.Transfer;

/// <summary>An import refused because the run was imported before (<see cref="RunTransfer.ImportKeyOf"/>).</summary>
public sealed class RunAlreadyImportedException : Exception
{
    public RunAlreadyImportedException()
        : this(new RunAlreadyImported(0, null))
    {
    }

    public RunAlreadyImportedException(string message)
        : base(message)
    {
        Earlier = new RunAlreadyImported(0, null);
    }

    public RunAlreadyImportedException(string message, Exception innerException)
        : base(message, innerException)
    {
        Earlier = new RunAlreadyImported(0, null);
    }

    public RunAlreadyImportedException(RunAlreadyImported earlier)
        : base(earlier?.Message)
    {
        ArgumentNullException.ThrowIfNull(earlier);
        Earlier = earlier;
    }

    /// <summary>The run it was imported as.</summary>
    public RunAlreadyImported Earlier { get; }
}
