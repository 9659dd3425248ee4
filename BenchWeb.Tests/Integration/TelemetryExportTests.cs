using System.Net;
using System.Text;
using BenchEngine.Metrics;
using BenchWeb.Guard.Security;
using BenchWeb.Tests.Support;
using Microsoft.Extensions.DependencyInjection;
using OpenTelemetry.Metrics;
using OpenTelemetry.Trace;

namespace BenchWeb.Tests.Integration;

/// <summary>OTLP export from the real app on a loopback port to a stand-in collector: off unless configured, and when on,
/// a run's engine measurements and its activity arrive as OTLP/HTTP protobuf.</summary>
[IntegrationTest]
public sealed class TelemetryExportTests
{
    [Fact]
    [Slow]
    public async Task Run_WithOtlpEndpoint_ExportsTheEngineMetricsAndTheRunTrace()
    {
        await using var collector = await OtlpCollectorStub.StartAsync();
        await using var host = await DashboardHost.StartAsync(new Dictionary<string, string?>
        {
            ["BenchWeb:Telemetry:OtlpEndpoint"] = collector.BaseAddress.ToString(),
            ["BenchWeb:Telemetry:MetricExportIntervalMilliseconds"] = "500",
            ["BenchWeb:Agent:Name"] = "agent-under-test",
        });
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);

        using var response = await RunsApiTests.PostJsonAsync(http, "api/runs", new { plan = RunsApiTests.ShortPlan("exported", seconds: 2) });
        Assert.Equal(HttpStatusCode.Accepted, response.StatusCode);
        var id = (await RunsApiTests.ReadAsync(response))["id"]!.GetValue<long>();
        var run = await RunsApiTests.WaitUntilEndedAsync(http, id);
        Assert.Equal("Completed", run["status"]!.GetValue<string>());

        // Stopping the app flushes what the exporters still hold (the trace's batch, the last metrics).
        await host.DisposeAsync();

        var runId = id.ToString(System.Globalization.CultureInfo.InvariantCulture);
        var metrics = collector.To("/v1/metrics");
        Assert.NotEmpty(metrics);
        Assert.All(metrics, e => Assert.Equal(("POST", "application/x-protobuf"), (e.Method, e.ContentType)));
        var exported = metrics.Where(e => e.HasAttribute(EngineTelemetry.RunIdTag, runId)).ToList();
        Assert.NotEmpty(exported);
        foreach (var name in new[] { EngineTelemetry.DocumentsInsertedName, EngineTelemetry.RequestsOkName, EngineTelemetry.OperationDurationName, EngineTelemetry.RequestUnitsName })
        {
            Assert.Contains(exported, e => e.Contains(Encoding.UTF8.GetBytes(name)));
        }

        Assert.Contains(exported, e => e.HasAttribute(EngineTelemetry.AgentTag, "agent-under-test") && e.HasAttribute(EngineTelemetry.TargetKindTag, "Simulated"));
        Assert.Contains(metrics, e => e.HasAttribute("service.name", "BenchWeb"));

        var traces = collector.To("/v1/traces");
        Assert.NotEmpty(traces);
        Assert.All(traces, e => Assert.Equal(("POST", "application/x-protobuf"), (e.Method, e.ContentType)));
        Assert.Contains(traces, e => e.Contains("run.execute"u8) && e.HasAttribute("benchweb.run.id", runId)
            && e.HasAttribute("benchweb.run.status", "Completed") && e.HasAttribute("benchweb.target.kind", "Simulated"));
    }

    [Theory]
    [InlineData(null, null)]
    [InlineData("false", "http://127.0.0.1:9/")]
    [InlineData(null, null, "http://127.0.0.1:9/")]
    public async Task Start_TelemetryNotTurnedOn_RegistersNoOpenTelemetry(string? enabled, string? endpoint, string? standardVariable = null)
    {
        await using var host = await DashboardHost.StartAsync(new Dictionary<string, string?>
        {
            ["BenchWeb:Telemetry:Enabled"] = enabled,
            ["BenchWeb:Telemetry:OtlpEndpoint"] = endpoint,
            ["OTEL_EXPORTER_OTLP_ENDPOINT"] = standardVariable,
        });

        Assert.Null(host.Services.GetService<MeterProvider>());
        Assert.Null(host.Services.GetService<TracerProvider>());
    }

    [Fact]
    public async Task Start_EnabledWithNoEndpointAnywhere_Fails_NamingBothSettings()
    {
        var error = await Assert.ThrowsAsync<InvalidOperationException>(() => DashboardHost.StartAsync(new Dictionary<string, string?>
        {
            ["BenchWeb:Telemetry:Enabled"] = "true",
            ["OTEL_EXPORTER_OTLP_ENDPOINT"] = "",
        }));

        Assert.Contains("BenchWeb:Telemetry:OtlpEndpoint", error.Message, StringComparison.Ordinal);
        Assert.Contains("OTEL_EXPORTER_OTLP_ENDPOINT", error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("BenchWeb:Telemetry:Protocol", "http/json", "BenchWeb:Telemetry:Protocol")]
    [InlineData("BenchWeb:Telemetry:OtlpEndpoint", "collector:4318", "absolute http or https")]
    [InlineData("BenchWeb:Telemetry:OtlpEndpoint", "ftp://collector/", "absolute http or https")]
    [InlineData("BenchWeb:Telemetry:MetricExportIntervalMilliseconds", "10", "MetricExportIntervalMilliseconds")]
    public async Task Start_InvalidTelemetrySetting_Fails_NamingIt(string key, string value, string expected)
    {
        var error = await Assert.ThrowsAnyAsync<Exception>(() => DashboardHost.StartAsync(new Dictionary<string, string?> { [key] = value }));

        Assert.Contains(expected, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Start_EnabledWithTheStandardVariable_RegistersTheProviders()
    {
        await using var collector = await OtlpCollectorStub.StartAsync();
        await using var host = await DashboardHost.StartAsync(new Dictionary<string, string?>
        {
            ["BenchWeb:Telemetry:Enabled"] = "true",
            ["OTEL_EXPORTER_OTLP_ENDPOINT"] = collector.BaseAddress.ToString(),
            ["OTEL_EXPORTER_OTLP_PROTOCOL"] = "http/protobuf",
        });

        Assert.NotNull(host.Services.GetService<MeterProvider>());
        Assert.NotNull(host.Services.GetService<TracerProvider>());
    }
}
