using System.ComponentModel.DataAnnotations;
using BenchEngine.Metrics;
using BenchWeb.Configuration;
using BenchWeb.Execution;
using OpenTelemetry.Exporter;
using OpenTelemetry.Metrics;
using OpenTelemetry.Resources;
using OpenTelemetry.Trace;

namespace BenchWeb.Hosting;

/// <summary>OpenTelemetry metrics and traces over OTLP, by the rule of <see cref="TelemetryOptions"/>. When it is off the SDK is
/// not registered at all: the engine's instruments then have no listener and cost a check per response.</summary>
public static class TelemetryExtensions
{
    public static WebApplicationBuilder AddBenchWebTelemetry(this WebApplicationBuilder builder)
    {
        ArgumentNullException.ThrowIfNull(builder);
        var configuration = builder.Configuration;
        var options = configuration.GetSection(TelemetryOptions.SectionName).Get<TelemetryOptions>() ?? new TelemetryOptions();

        // Checked even when off: a setting that could never work is said at start-up, not when someone turns it on.
        Validator.ValidateObject(options, new ValidationContext(options), validateAllProperties: true);
        var endpoint = options.OtlpEndpoint;
        if (endpoint is not null && !(endpoint.IsAbsoluteUri && endpoint.Scheme is "http" or "https"))
        {
            throw new InvalidOperationException($"{TelemetryOptions.SectionName}:OtlpEndpoint must be an absolute http or https address, such as http://otel-collector:4318.");
        }

        if (!options.IsOn)
        {
            return builder;
        }

        if (endpoint is null && string.IsNullOrWhiteSpace(configuration[TelemetryOptions.StandardEndpointVariable]))
        {
            // Never the SDK's default localhost collector: only an address someone configured is contacted.
            throw new InvalidOperationException(
                $"{TelemetryOptions.SectionName}:Enabled is true, but neither {TelemetryOptions.SectionName}:OtlpEndpoint nor {TelemetryOptions.StandardEndpointVariable} says where to export.");
        }

        var grpc = options.Protocol == TelemetryOptions.Grpc;
        void Export(OtlpExporterOptions exporter, string signalPath)
        {
            // Unset, the exporter is the SDK's, configured by the standard OTEL_EXPORTER_OTLP_* variables.
            if (endpoint is null)
            {
                return;
            }

            exporter.Protocol = grpc ? OtlpExportProtocol.Grpc : OtlpExportProtocol.HttpProtobuf;

            // An endpoint set in code is used as it is; the base address takes the signal's path here, as the standard
            // variable would, so one setting serves both signals.
            exporter.Endpoint = grpc ? endpoint : new Uri(new Uri(endpoint.AbsoluteUri.TrimEnd('/') + "/"), signalPath);
        }

        // The instance: App Service's instance id when there is one, else the machine.
        builder.Services.AddOpenTelemetry()
            .ConfigureResource(resource => resource.AddService(
                TelemetryOptions.ServiceName,
                serviceVersion: typeof(TelemetryExtensions).Assembly.GetName().Version?.ToString(),
                autoGenerateServiceInstanceId: false,
                serviceInstanceId: configuration["WEBSITE_INSTANCE_ID"] is { Length: > 0 } instance ? instance : Environment.MachineName))
            .WithMetrics(metrics => metrics
                .AddMeter(EngineTelemetry.MeterName, TelemetryOptions.ServiceName)
                .AddOtlpExporter((exporter, reader) =>
                {
                    Export(exporter, "v1/metrics");
                    if (options.MetricExportIntervalMilliseconds is { } interval)
                    {
                        reader.PeriodicExportingMetricReaderOptions.ExportIntervalMilliseconds = interval;
                    }
                }))
            .WithTracing(tracing => tracing
                .AddSource(RunActivity.SourceName)
                .AddOtlpExporter(exporter => Export(exporter, "v1/traces")));
        return builder;
    }
}
