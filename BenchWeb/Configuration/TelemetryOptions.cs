using System.ComponentModel.DataAnnotations;

namespace BenchWeb.Configuration;

/// <summary>OpenTelemetry export (section <c>BenchWeb:Telemetry</c>), off by default. The rule: telemetry is on when
/// <see cref="OtlpEndpoint"/> is set, or when <see cref="Enabled"/> is true, and <see cref="Enabled"/> false turns it off
/// whatever else is set. Only an endpoint an administrator configured is contacted: <see cref="OtlpEndpoint"/>, or, when it
/// is unset and <see cref="Enabled"/> is true, the standard <c>OTEL_EXPORTER_OTLP_ENDPOINT</c> (with the SDK's own
/// <c>OTEL_EXPORTER_OTLP_*</c> rules). That variable alone, as a host may set it for other apps, turns nothing on.</summary>
public sealed class TelemetryOptions
{
    public const string SectionName = "BenchWeb:Telemetry";

    /// <summary>The service name of the exported resource, and the name of the dashboard's activity source and meter.</summary>
    public const string ServiceName = "BenchWeb";

    public const string HttpProtobuf = "http/protobuf";

    public const string Grpc = "grpc";

    /// <summary>The standard variable honoured when <see cref="Enabled"/> is true and <see cref="OtlpEndpoint"/> unset.</summary>
    public const string StandardEndpointVariable = "OTEL_EXPORTER_OTLP_ENDPOINT";

    /// <summary>Unset: on exactly when <see cref="OtlpEndpoint"/> is set. True: on, exporting to <see cref="OtlpEndpoint"/> or
    /// else to <c>OTEL_EXPORTER_OTLP_ENDPOINT</c> (one of them must be set). False: off.</summary>
    public bool? Enabled { get; set; }

    /// <summary>The OTLP collector's base address (http or https), e.g. <c>http://otel-collector:4318</c>. For
    /// <c>http/protobuf</c> the signal's path is appended (<c>v1/metrics</c>, <c>v1/traces</c>), as for the standard
    /// variable; for <c>grpc</c> it is used as it is.</summary>
    public Uri? OtlpEndpoint { get; set; }

    /// <summary>How <see cref="OtlpEndpoint"/> is spoken to: <c>http/protobuf</c> (default) or <c>grpc</c>.</summary>
    [AllowedValues(HttpProtobuf, Grpc, ErrorMessage = $"{SectionName}:Protocol must be {HttpProtobuf} or {Grpc}.")]
    public string Protocol { get; set; } = HttpProtobuf;

    /// <summary>How often metrics are exported, in milliseconds. Unset: the SDK's default (60 s, or
    /// <c>OTEL_METRIC_EXPORT_INTERVAL</c>).</summary>
    [Range(100, 3_600_000, ErrorMessage = $"{SectionName}:MetricExportIntervalMilliseconds must be between 100 and 3,600,000.")]
    public int? MetricExportIntervalMilliseconds { get; set; }

    /// <summary>Whether the OpenTelemetry SDK is registered at all, by the rule above.</summary>
    public bool IsOn => Enabled ?? OtlpEndpoint is not null;
}
