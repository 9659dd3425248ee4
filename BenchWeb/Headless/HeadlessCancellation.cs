using System.Runtime.InteropServices;

namespace BenchWeb.Headless;

/// <summary>
/// What cancels a headless run: Ctrl+C (SIGINT), and SIGTERM, which a CI runner's timeout, <c>docker stop</c>,
/// systemd and Kubernetes send. Each cancels the run as Ctrl+C does: its seconds are kept, the summary and the result file
/// written, and the command exits <see cref="HeadlessCommand.ExitCancelled"/>, never killed half-way with nothing written.
/// </summary>
/// <remarks>The signal's default (ending the process at once) is suppressed for as long as this is not disposed; a stopper
/// that will not wait sends SIGKILL, as it does to any process that outstays its grace period.</remarks>
public sealed class HeadlessCancellation : IDisposable
{
    private readonly CancellationTokenSource _cancellation = new();
    private readonly List<PosixSignalRegistration> _registrations = [];

    private HeadlessCancellation()
    {
        Console.CancelKeyPress += OnCancelKeyPress;
        if (!OperatingSystem.IsWindows())
        {
            // SIGINT and SIGQUIT reach Console.CancelKeyPress; SIGTERM does not.
            _registrations.Add(PosixSignalRegistration.Create(PosixSignal.SIGTERM, OnSignal));
        }
    }

    /// <summary>Cancelled by the first of the signals.</summary>
    public CancellationToken Token => _cancellation.Token;

    /// <summary>Starts listening for the signals that cancel a run.</summary>
    public static HeadlessCancellation Listen() => new();

    public void Dispose()
    {
        Console.CancelKeyPress -= OnCancelKeyPress;
        foreach (var registration in _registrations)
        {
            registration.Dispose();
        }

        _cancellation.Dispose();
    }

    private void OnCancelKeyPress(object? sender, ConsoleCancelEventArgs e)
    {
        e.Cancel = true;
        _cancellation.Cancel();
    }

    private void OnSignal(PosixSignalContext context)
    {
        context.Cancel = true;
        _cancellation.Cancel();
    }
}
