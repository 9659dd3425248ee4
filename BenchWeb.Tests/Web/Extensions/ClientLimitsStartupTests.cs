using BenchEngine.Metrics;
using BenchEngine.Running;
using BenchWeb.Tests.Support;
using Microsoft.Extensions.Options;

namespace BenchWeb.Tests.Web.Extensions;

/// <summary>The dashboard's client-limited bounds from its configuration, checked when it starts.</summary>
[IntegrationTest]
public sealed class ClientLimitsStartupTests
{
    [Fact]
    public async Task Start_WithConfiguredBounds_GivesThemToTheRunnerEveryRunUses()
    {
        await using var app = new BenchWebFactory(new Dictionary<string, string?>
        {
            ["BenchWeb:ClientLimits:HostCpuPercent"] = "90",
            ["BenchWeb:ClientLimits:GcPauseMs"] = "",
        });

        var runner = app.Get<BenchmarkRunner>();

        Assert.Equal(ClientLimits.Default with { HostCpuPercent = 90, GcPauseMs = null }, runner.ClientLimits);
    }

    [Fact]
    public async Task Start_WithABoundOutOfItsRange_FailsNamingTheBound()
    {
        await using var app = new BenchWebFactory(new Dictionary<string, string?> { ["BenchWeb:ClientLimits:HostCpuPercent"] = "150" });

        var refused = Assert.Throws<OptionsValidationException>(() => app.Services);

        Assert.Contains("HostCpuPercent", refused.Message, StringComparison.Ordinal);
    }
}
