using Microsoft.Playwright;

namespace BenchWeb.Tests.Support;

/// <summary>
/// Debian's Chromium driven by Playwright. No test or benchmark downloads a browser: the executable is
/// <c>BENCHWEB_CHROMIUM</c> or <c>/usr/bin/chromium</c>, which test.sh installs. Each launch gets a fresh
/// temporary profile (Playwright's own <c>--user-data-dir</c>, deleted on close).
/// </summary>
public static class Chromium
{
    public static string ExecutablePath =>
        Environment.GetEnvironmentVariable("BENCHWEB_CHROMIUM") is { Length: > 0 } configured ? configured : "/usr/bin/chromium";

    public static IReadOnlyList<string> Arguments { get; } =
    [
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
    ];

    public static Task<IBrowser> LaunchAsync(IPlaywright playwright)
    {
        ArgumentNullException.ThrowIfNull(playwright);
        if (!File.Exists(ExecutablePath))
        {
            throw new InvalidOperationException(
                $"Chromium is not at {ExecutablePath}. Run ./test.sh (it installs Debian's chromium) or set BENCHWEB_CHROMIUM.");
        }

        return playwright.Chromium.LaunchAsync(new BrowserTypeLaunchOptions
        {
            ExecutablePath = ExecutablePath,
            Headless = true,
            Args = Arguments,
        });
    }
}
