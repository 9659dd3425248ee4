namespace BenchWeb.Uploads;

/// <summary>At start-up, after the schema is migrated: removes what uploads interrupted by a stopped process left behind.</summary>
public sealed partial class UploadCleanupService(CsvUploadStore uploads, ILogger<UploadCleanupService> logger) : IHostedService
{
    public async Task StartAsync(CancellationToken cancellationToken)
    {
        if (await uploads.DeleteLeftoversAsync(cancellationToken) is > 0 and var removed)
        {
            LogRemoved(logger, removed);
        }
    }

    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    [LoggerMessage(Level = LogLevel.Information, Message = "{Count} file(s) left by interrupted uploads removed")]
    private static partial void LogRemoved(ILogger logger, int count);
}
