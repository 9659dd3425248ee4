using Hangfire.AspNetCore;
using Hangfire.Logging;

namespace BenchWeb.Jobs;

/// <summary>Hangfire's logs, written to the app's logging. Hangfire keeps its log provider in a static, so with
/// several apps in one process (tests host several) the last app configured provides the loggers of all, and its
/// logger factory may be disposed before the others stop: a logger asked for then logs nowhere instead of failing
/// the Hangfire part that asked.</summary>
internal sealed class HangfireLogProvider(ILoggerFactory loggerFactory) : ILogProvider
{
    private readonly AspNetCoreLogProvider _inner = new(loggerFactory);

    public ILog GetLogger(string name)
    {
        try
        {
            return _inner.GetLogger(name);
        }
        catch (ObjectDisposedException)
        {
            return Silent.Instance;
        }
    }

    private sealed class Silent : ILog
    {
        public static readonly Silent Instance = new();

        public bool Log(Hangfire.Logging.LogLevel logLevel, Func<string>? messageFunc, Exception? exception = null) => false;
    }
}
