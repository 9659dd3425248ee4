using System.Globalization;
using System.Net;
using BenchWeb.Guard.Administration;
using Microsoft.Extensions.Options;

namespace BenchWeb.Guard.Security;

/// <summary>Which service endpoints a run may connect to. A run sends an account key and a benchmark's load to the
/// address in its plan, which any Runner may type: so only hosts matching an administrator's patterns (managed on the
/// settings page), over https. Hosts of this machine (localhost, 127.0.0.0/8, ::1) only where the installation enables
/// them (<see cref="SecurityOptions.AllowLoopbackEndpoints"/>, for emulators and test servers), and then over http too.
/// <see cref="Check(Uri)"/> has the shape of a per-connection policy, so the engine's targets can call it for every
/// connection they open.</summary>
public sealed class EndpointAllowList(InstallationSettingsService settings, IOptions<SecurityOptions> security)
{
    /// <summary>Every target's service hosts in Azure's public cloud, Azure China and Azure US Government, as its module
    /// declares them (Cosmos DB, Table, Blob and Queue Storage, Azure Cache for Redis).</summary>
    public static readonly IReadOnlyList<string> BuiltInPatterns =
        [.. BenchEngine.Targets.TargetRegistry.All.OfType<BenchEngine.Targets.IServiceEndpoints>().SelectMany(m => m.ServiceHostPatterns).Distinct(StringComparer.Ordinal)];

    public const int MaxPatterns = 100;

    /// <summary>The longest DNS name.</summary>
    public const int MaxPatternLength = 253;

    /// <summary>Null when a run may connect to <paramref name="endpoint"/>; otherwise why not, naming the host and
    /// the rule. Uses the allow-list as last read from the database (the settings page and every launch refresh it).</summary>
    public string? Check(Uri endpoint) => Check(endpoint, settings.Rules.EndpointPatterns, security.Value.AllowLoopbackEndpoints);

    /// <summary>Null when <paramref name="endpoint"/> is allowed by these patterns; otherwise why not.</summary>
    /// <param name="endpoint">The address a run would connect to.</param>
    /// <param name="patterns">The allow-list's host patterns.</param>
    /// <param name="allowLoopback">Whether hosts of this machine are allowed.</param>
    /// <param name="listAtMost">How many of the patterns a refusal lists, then how many more there are (a form's narrow
    /// column); null lists them all (the API's and the audit log's refusal).</param>
    public static string? Check(Uri endpoint, IReadOnlyList<string> patterns, bool allowLoopback, int? listAtMost = null)
    {
        ArgumentNullException.ThrowIfNull(endpoint);
        ArgumentNullException.ThrowIfNull(patterns);
        if (!endpoint.IsAbsoluteUri || endpoint.HostNameType is UriHostNameType.Unknown || endpoint.Host.Length == 0)
        {
            return $"'{endpoint}' is not an absolute address with a host.";
        }

        var host = HostOf(endpoint);
        if (IsLoopback(host))
        {
            if (!allowLoopback)
            {
                return $"The endpoint host '{host}' is this machine (loopback); this installation does not allow loopback endpoints "
                    + "(BenchWeb:Security:AllowLoopbackEndpoints, for emulators and test servers).";
            }

            return BenchEngine.Targets.EndpointPolicy.CheckAddress(endpoint);
        }

        // The engine's own address rule (scheme, no credentials), in its words: the profile editor shows the two rule sets side by side.
        if (BenchEngine.Targets.EndpointPolicy.CheckAddress(endpoint) is { } address)
        {
            return address;
        }

        return patterns.Any(p => Matches(p, host))
            ? null
            : $"The endpoint host '{host}' is not on this installation's endpoint allow-list ({Listed(patterns, listAtMost)}); an administrator can add it on the settings page.";
    }

    private static string Listed(IReadOnlyList<string> patterns, int? atMost) =>
        atMost is { } most && patterns.Count > most
            ? $"{string.Join(", ", patterns.Take(Math.Max(0, most)))}, … {patterns.Count - Math.Max(0, most)} more"
            : string.Join(", ", patterns);

    /// <summary>Whether a host matches a pattern. <c>*.</c> stands for exactly one DNS label, as in a TLS wildcard
    /// certificate: <c>*.documents.azure.com</c> matches <c>acme.documents.azure.com</c>, but neither
    /// <c>documents.azure.com</c>, <c>a.b.documents.azure.com</c> nor <c>documents.azure.com.evil.example</c>.
    /// Any other pattern is one host, exactly. Case and a trailing dot do not matter.</summary>
    public static bool Matches(string pattern, string host)
    {
        ArgumentNullException.ThrowIfNull(pattern);
        ArgumentNullException.ThrowIfNull(host);
        pattern = Normalize(pattern);
        host = Normalize(host);
        if (pattern.StartsWith("*.", StringComparison.Ordinal))
        {
            var suffix = pattern[1..];
            return host.Length > suffix.Length
                && host.EndsWith(suffix, StringComparison.Ordinal)
                && !host[..^suffix.Length].Contains('.', StringComparison.Ordinal);
        }

        return pattern.Length > 0 && string.Equals(host, pattern, StringComparison.Ordinal);
    }

    /// <summary>Null when the pattern can go on the list; otherwise what is wrong with it.</summary>
    public static string? ValidatePattern(string pattern)
    {
        ArgumentNullException.ThrowIfNull(pattern);
        var normalized = Normalize(pattern);
        if (normalized.Length is 0 or > MaxPatternLength)
        {
            return $"'{pattern}': give a host name of 1 to {MaxPatternLength} characters.";
        }

        if (IPAddress.TryParse(normalized.Trim('[', ']'), out _))
        {
            return null;
        }

        var wildcard = normalized.StartsWith("*.", StringComparison.Ordinal);
        var labels = (wildcard ? normalized[2..] : normalized).Split('.');
        if (labels.Any(l => l.Length is 0 or > 63 || l.StartsWith('-') || l.EndsWith('-') || !l.All(c => char.IsAsciiLetterLower(c) || char.IsAsciiDigit(c) || c == '-')))
        {
            return $"'{pattern}': a host name (letters, digits, hyphens; an international name in its xn-- form), optionally starting with '*.' for any one label.";
        }

        // '*.com' would allow any site of a top-level domain: far broader than one service's endpoints.
        return wildcard && labels.Length < 2 ? $"'{pattern}' is too broad: a wildcard needs at least two labels after it, e.g. *.documents.azure.com." : null;
    }

    /// <summary>Whether the host is this machine: <c>localhost</c> (and names under it) or a loopback address.</summary>
    public static bool IsLoopback(string host)
    {
        ArgumentNullException.ThrowIfNull(host);
        host = Normalize(host).Trim('[', ']');
        if (host == "localhost" || host.EndsWith(".localhost", StringComparison.Ordinal))
        {
            return true;
        }

        return IPAddress.TryParse(host, out var address) && IPAddress.IsLoopback(address.IsIPv4MappedToIPv6 ? address.MapToIPv4() : address);
    }

    /// <summary>The host as matched and shown: its IDN (punycode) form, lower case, no trailing dot or brackets.</summary>
    public static string HostOf(Uri endpoint)
    {
        ArgumentNullException.ThrowIfNull(endpoint);
        return Normalize(endpoint.IdnHost).Trim('[', ']');
    }

    private static string Normalize(string value) => value.Trim().TrimEnd('.').ToLower(CultureInfo.InvariantCulture);
}
