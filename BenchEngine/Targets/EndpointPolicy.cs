using System.Net;
using System.Text.RegularExpressions;

namespace BenchEngine.Targets;

/// <summary>
/// Which endpoints a target may connect to, decided by the host: the dashboard passes its allow-list, a headless run
/// and the tests use <see cref="Default"/>. Each real target asks it about its endpoint before connecting, and every
/// connection the SDKs open goes through it too (<see cref="PolicedHttpHandler"/>), so a redirect or a regional endpoint
/// named by the service cannot reach a host the policy refuses.
/// </summary>
/// <remarks>The address rule (<see cref="CheckAddress"/>: the scheme, no credentials) always applies first: a host's own
/// check only narrows it.</remarks>
public sealed partial class EndpointPolicy
{
    private readonly Func<Uri, string?> _check;

    /// <param name="check">The host's own rule: null when the endpoint is allowed, else why not, in words a user can
    /// act on (never a secret). It sees scheme, host and port; paths and queries do not decide.</param>
    /// <param name="allowDirectMode">Whether Cosmos DB's Direct mode may be used. Direct mode opens TCP connections to
    /// replica addresses the service returns, which no SDK hook lets this policy see: a host that must control every
    /// address passes false, and such targets must use Gateway mode.</param>
    public EndpointPolicy(Func<Uri, string?> check, bool allowDirectMode = true)
    {
        ArgumentNullException.ThrowIfNull(check);
        _check = check;
        AllowsDirectMode = allowDirectMode;
    }

    /// <summary>The scheme rule alone: http or https, and https unless the host is this machine.</summary>
    public static EndpointPolicy Default { get; } = new(_ => null);

    /// <summary>Whether Cosmos DB's Direct (TCP) mode is allowed; see the constructor.</summary>
    public bool AllowsDirectMode { get; }

    /// <summary>Null when <paramref name="endpoint"/> may be reached; otherwise why not.</summary>
    public string? Check(Uri endpoint)
    {
        ArgumentNullException.ThrowIfNull(endpoint);
        return CheckAddress(endpoint) ?? _check(endpoint);
    }

    /// <summary>The rules every endpoint is held to, whatever the host's own: <see cref="CheckScheme"/>, and no user name or
    /// password in it. Credentials belong in a secret: an endpoint is stored in the plan, shown to every reader of it and
    /// recorded in the audit log. The message names the host only, never what came before the <c>@</c>.</summary>
    public static string? CheckAddress(Uri endpoint)
    {
        ArgumentNullException.ThrowIfNull(endpoint);
        return CheckScheme(endpoint) ?? (endpoint.UserInfo.Length > 0
            ? $"The endpoint for '{endpoint.Host}' carries a user name or password (before an @): give the address only and store the key as a secret."
            : null);
    }

    /// <summary><paramref name="address"/> without the user name and password it carries (<c>https://user:pw@host/</c> →
    /// <c>https://host/</c>), the rest as written; any other text as it is. For showing an address stored before
    /// <see cref="CheckAddress"/> refused such addresses: the stored one keeps them, and is refused when it would run.</summary>
    public static string WithoutUserInfo(string address)
    {
        ArgumentNullException.ThrowIfNull(address);
        var shown = UserInfo().Replace(address, "", 1);

        // An http(s) address the pattern does not see through but a URL parser reads a user name in: rebuilt from the parsed
        // address, so that nothing the engine would send as credentials is shown.
        return Uri.TryCreate(shown.Trim(), UriKind.Absolute, out var uri) && uri.Scheme is "http" or "https" && uri.UserInfo.Length > 0
            ? new UriBuilder(uri) { UserName = "", Password = "" }.Uri.AbsoluteUri
            : shown;
    }

    /// <summary><paramref name="text"/> with every address in it shown without its user name and password, wherever in the text
    /// it stands (<c>Cannot open … at https://user:pw@host/</c>, an audit entry's <c>"…" → "https://user:pw@host/"</c>); null
    /// stays null. For texts stored before <see cref="CheckAddress"/> refused such addresses: old audit entries and run
    /// failure texts.</summary>
    public static string? WithoutUserInfoInText(string? text) => text is null ? null : UserInfoInText().Replace(text, "");

    [GeneratedRegex(@"(?<=\b(?:[a-z][a-z0-9+.\-]*:[/\\]{2}|https?:[/\\]))[^/\\?#\s""'@]*(?:@[^/\\?#\s""'@]*)*@", RegexOptions.IgnoreCase | RegexOptions.CultureInvariant)]
    private static partial Regex UserInfoInText();

    /// <summary>The user-info part of an address: after <c>scheme://</c> (either slash; one is enough for http and https, as
    /// URL parsers are lenient there) and up to the last <c>@</c> before the host ends.</summary>
    [GeneratedRegex(@"(?<=^\s*(?:[a-z][a-z0-9+.\-]*:[/\\]{2}|https?:[/\\]))[^/\\?#]*@", RegexOptions.IgnoreCase | RegexOptions.CultureInvariant)]
    private static partial Regex UserInfo();

    /// <summary>Only http and https; plain http only to this machine, where nothing crosses a network.</summary>
    public static string? CheckScheme(Uri endpoint)
    {
        ArgumentNullException.ThrowIfNull(endpoint);
        if (!endpoint.IsAbsoluteUri || endpoint.Scheme is not ("http" or "https"))
        {
            return "Only http or https endpoints can be used.";
        }

        return endpoint.Scheme == "http" && !IsLoopback(endpoint.Host)
            ? $"Use https for '{endpoint.Host}': plain http is only for an endpoint on this machine (localhost, 127.0.0.1, ::1)."
            : null;
    }

    /// <summary>Whether <paramref name="host"/> names this machine without a name lookup: <c>localhost</c> or a loopback address.</summary>
    public static bool IsLoopback(string host)
    {
        ArgumentNullException.ThrowIfNull(host);
        return string.Equals(host, "localhost", StringComparison.OrdinalIgnoreCase)
            || (IPAddress.TryParse(host.Trim('[', ']'), out var address) && IPAddress.IsLoopback(address));
    }
}
