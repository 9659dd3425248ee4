using System.Globalization;
using System.Text.RegularExpressions;
using Microsoft.Playwright;

namespace BenchWeb.Tests.Support;

/// <summary>What a user does in the dashboard, as browser steps: shared by the browser tests and the benchmarks.</summary>
public static partial class DashboardPages
{
    /// <summary>The input of a plan field: the profile form gives each input the field's path as id (e.g. <c>Load.Concurrency</c>).</summary>
    public static string Field(string path) => $"[id='{path}']";

    /// <summary>A browser context carrying the dashboard's administrator session.</summary>
    public static async Task<IBrowserContext> NewSignedInContextAsync(IBrowser browser, DashboardProcess app, BrowserNewContextOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(browser);
        ArgumentNullException.ThrowIfNull(app);
        var context = await browser.NewContextAsync(options);
        var session = await app.SessionCookieAsync();
        await context.AddCookiesAsync([new Cookie { Name = session.Name, Value = session.Value, Url = app.BaseAddress.ToString(), HttpOnly = true, SameSite = SameSiteAttribute.Lax }]);
        return context;
    }

    /// <summary>Opens a page and waits until it is interactive: a prerendered page shows before its buttons work.</summary>
    public static async Task GotoAsync(IPage page, Uri address)
    {
        ArgumentNullException.ThrowIfNull(page);
        ArgumentNullException.ThrowIfNull(address);
        await page.GotoAsync(address.ToString());
        await WaitForInteractiveAsync(page);
    }

    public static Task WaitForInteractiveAsync(IPage page)
    {
        ArgumentNullException.ThrowIfNull(page);
        return page.Locator("main[data-interactive='true']").WaitForAsync();
    }

    /// <summary>Types a value and commits it by leaving the field, as a user does (the form binds on change): one change
    /// event, the browser's own. A change dispatched by hand as well would be followed by the browser's when the next click
    /// takes the focus, naming a handler the first one's render may have replaced.</summary>
    public static async Task FillAsync(IPage page, string path, string value)
    {
        ArgumentNullException.ThrowIfNull(page);
        var input = page.Locator(Field(path));
        await input.FillAsync(value);
        await input.BlurAsync();
    }

    public static async Task SelectAsync(IPage page, string path, string value)
    {
        ArgumentNullException.ThrowIfNull(page);
        await page.Locator(Field(path)).SelectOptionAsync(value);
    }

    /// <summary>Creates a profile at <c>/profiles/new</c> with the given field values, clicks “Save and run”, and
    /// returns the run's id once the browser is on its live page.</summary>
    public static async Task<long> SaveAndRunNewProfileAsync(IPage page, Uri baseAddress, string name, IEnumerable<KeyValuePair<string, string>> fields)
    {
        ArgumentNullException.ThrowIfNull(page);
        ArgumentNullException.ThrowIfNull(baseAddress);
        ArgumentNullException.ThrowIfNull(fields);
        await GotoAsync(page, new Uri(baseAddress, "profiles/new"));
        await FillAsync(page, "Name", name);
        foreach (var (path, value) in fields)
        {
            await FillAsync(page, path, value);
        }

        await page.Locator("#save-and-run").ClickAsync();
        await page.WaitForURLAsync(RunPageUrl());
        return long.Parse(RunPageUrl().Match(page.Url).Groups[1].Value, CultureInfo.InvariantCulture);
    }

    /// <summary>What is wrong with the charts drawn on the page (Chart.js's own list of them): a colour two series of one
    /// chart share, a latency axis that is not logarithmic. Empty when nothing is.</summary>
    public static async Task<string[]> ChartProblemsAsync(IPage page)
    {
        ArgumentNullException.ThrowIfNull(page);
        // The charts are drawn by the page's script after the table is on screen: wait for the first one (a busy machine can
        // take a few seconds) before reading them, and report none if none comes.
        try
        {
            await page.WaitForFunctionAsync("() => window.Chart && Object.keys(window.Chart.instances).length > 0", null, new() { Timeout = 15_000 });
        }
        catch (TimeoutException)
        {
            return ["no chart is drawn"];
        }

        return await page.EvaluateAsync<string[]>(
            """
            () => Object.values(window.Chart.instances).length === 0 ? ['no chart is drawn'] : Object.values(window.Chart.instances).flatMap(chart => {
              const name = chart.options.plugins.title.text;
              const colours = chart.data.datasets.map(d => String(d.borderColor).toLowerCase());
              const repeated = colours.filter((c, i) => colours.indexOf(c) !== i);
              const problems = repeated.map(c => `${name}: two series in ${c}`);
              if (/latency/i.test(name) && chart.options.scales.y.type !== 'logarithmic') problems.push(`${name}: latency on a ${chart.options.scales.y.type} axis`);
              return problems;
            })
            """);
    }

    /// <summary>The x range of each chart of a run's page, as "min-max".</summary>
    public static async Task<string[]> RunChartRangesAsync(IPage page)
    {
        ArgumentNullException.ThrowIfNull(page);
        return await page.EvaluateAsync<string[]>("() => Object.values(window.benchWeb.view.charts).map(c => `${c.scales.x.min}-${c.scales.x.max}`)");
    }

    /// <summary>The run's status badge on its live page.</summary>
    public static ILocator Status(IPage page)
    {
        ArgumentNullException.ThrowIfNull(page);
        return page.Locator(".run-header [data-status]");
    }

    /// <summary>How many seconds the live chart has drawn (0 before the first).</summary>
    public static async Task<int> ChartPointsAsync(IPage page)
    {
        ArgumentNullException.ThrowIfNull(page);
        var points = await page.Locator("#run-charts").GetAttributeAsync("data-points");
        return int.TryParse(points, NumberStyles.Integer, CultureInfo.InvariantCulture, out var value) ? value : 0;
    }

    /// <summary>Waits until the run shows the status (e.g. <c>Completed</c>).</summary>
    public static Task WaitForStatusAsync(IPage page, string status, TimeSpan timeout)
    {
        ArgumentNullException.ThrowIfNull(page);
        return page.Locator($".run-header [data-status='{status}']").WaitForAsync(new LocatorWaitForOptions { Timeout = (float)timeout.TotalMilliseconds });
    }

    [GeneratedRegex(@"/runs/(\d+)$")]
    private static partial Regex RunPageUrl();
}
