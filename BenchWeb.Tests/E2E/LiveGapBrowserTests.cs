using System.Text.Json.Nodes;
using System.Text.RegularExpressions;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Tests.Support;
using Microsoft.Playwright;

namespace BenchWeb.Tests.E2E;

/// <summary>A live run page that never got one second's message (lost between servers, say) fills the gap from the hub once
/// a later second arrives, without a reload. The runs hub's WebSocket is routed through the test, which drops the first
/// second pushed after the page joined the run (one that its history cannot have held).</summary>
[Collection(DashboardBrowserCollection.Name)]
[BrowserTest]
[Slow]
public sealed partial class LiveGapBrowserTests(DashboardBrowserFixture fixture) : IAsyncLifetime
{
    // SignalR's JSON hub protocol message types.
    private const int Invocation = 1;
    private const int Completion = 3;

    private WatchedPage? _watched;

    // The page's first completion from the hub answers its JoinRun: from then on a pushed second is a live one.
    private int _joined;

    // The index of the second whose message was dropped; -1 until then.
    private int _dropped = -1;

    private IPage Page => _watched?.Page ?? throw new InvalidOperationException("No page yet.");

    public async Task InitializeAsync() => _watched = await WatchedPage.OpenAsync(fixture, 1_366, 900);

    public async Task DisposeAsync()
    {
        if (_watched is not null)
        {
            await _watched.DisposeAsync();
        }
    }

    [Fact]
    public async Task ASecondsMessageLost_TheLivePageFetchesTheMissingSecond_WithoutReloading()
    {
        using var http = await fixture.App.CreateSignedInClientAsync();
        var plan = new RunPlan
        {
            Name = "E2E live gap",
            Target = new TargetOptions { Kind = TargetKind.Simulated, Simulator = new SimulatorOptions { ProvisionedRequestUnits = 50_000, MedianLatencyMs = 5 } },
            Load = new LoadOptions { Concurrency = 2 },
            Stop = new StopOptions { DurationSeconds = 60 },
        };
        await Page.RouteWebSocketAsync(RunsHubSocket(), page =>
        {
            var server = page.ConnectToServer();
            server.OnMessage(frame =>
            {
                if (frame.Text is not { } text)
                {
                    page.Send(frame.Binary ?? []);
                }
                else if (WithoutTheDroppedSecond(text) is { } kept)
                {
                    page.Send(kept);
                }
            });
        });
        var runId = await ApiRuns.StartAsync(http, plan);

        await BrowserDiagnostics.RunAsync(Page, "live-gap", () => _watched!.Errors, () => fixture.App.Output, async () =>
        {
            await DashboardPages.GotoAsync(Page, new Uri(fixture.App.BaseAddress, $"runs/{runId}"));
            await Page.WaitForFunctionAsync("() => window.benchWeb?.view != null");
            await Page.EvaluateAsync("() => { window.benchWeb.firstView = window.benchWeb.view; }");

            // The view that started with the page (not one a reload or a reconnect would make) ends up with every second up
            // to the last it received, the dropped one included.
            await Eventually.TrueAsync(() => Task.FromResult(Volatile.Read(ref _dropped) >= 0), TimeSpan.FromSeconds(60), "No second was pushed to the page after it joined.");
            var dropped = Volatile.Read(ref _dropped);
            await Page.WaitForFunctionAsync(
                $"() => {{ const v = window.benchWeb.firstView; return v.lastIndex > {dropped} && v.seconds.has({dropped}); }}",
                null,
                new PageWaitForFunctionOptions { Timeout = 60_000, PollingInterval = 100 });
            Assert.True(await Page.EvaluateAsync<bool>("() => window.benchWeb.firstView === window.benchWeb.view"), "The page made a new view (a reload).");
            using var cancelled = await http.PostAsync(new Uri($"api/runs/{runId}/cancel", UriKind.Relative), null);
            Assert.True(cancelled.IsSuccessStatusCode, await cancelled.Content.ReadAsStringAsync());
            await DashboardPages.WaitForStatusAsync(Page, "Cancelled", TimeSpan.FromSeconds(60));
        });
        Assert.True(_watched!.Errors.Count == 0, string.Join(Environment.NewLine, _watched.Errors));
    }

    /// <summary>The frame's SignalR records without the invocation that pushes the first live second; null when nothing is
    /// left.</summary>
    private string? WithoutTheDroppedSecond(string frame)
    {
        const char RecordSeparator = '\u001e';
        var kept = new List<string>();
        foreach (var record in frame.Split(RecordSeparator, StringSplitOptions.RemoveEmptyEntries))
        {
            var message = JsonNode.Parse(record) as JsonObject;
            var type = message?["type"]?.GetValue<int>();
            if (type == Completion)
            {
                Volatile.Write(ref _joined, 1);
            }
            else if (type == Invocation && Volatile.Read(ref _joined) == 1 && Volatile.Read(ref _dropped) < 0
                && message!["target"]?.GetValue<string>() == "second" && message["arguments"]?[0]?["index"]?.GetValue<int>() is { } index)
            {
                Volatile.Write(ref _dropped, index);
                continue;
            }

            kept.Add(record + RecordSeparator);
        }

        return kept.Count == 0 ? null : string.Concat(kept);
    }

    [GeneratedRegex("/hubs/runs")]
    private static partial Regex RunsHubSocket();
}
