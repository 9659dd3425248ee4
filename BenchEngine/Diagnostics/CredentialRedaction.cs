using System.Text.RegularExpressions;

namespace BenchEngine.Diagnostics;

/// <summary>
/// Takes credentials out of a diagnostics text before it is kept: the values of the secrets the run read (an account key,
/// a connection string and the key inside it), and whatever has a credential's shape — a SAS signature (<c>sig=</c>), an
/// account key or password in a connection string (<c>AccountKey=</c>), an <c>Authorization</c> header's value, a bearer
/// token, a JSON web token, an address's user name and password (<c>https://user:secret@host</c>), and the tokens whose
/// shape is known (the dashboard's own, <c>bw_…</c>; GitHub's, GitLab's, npm's, Slack's). Each is replaced by
/// <see cref="Marker"/>; the rest of the text (endpoints, ids, timings) stays.
/// </summary>
public static partial class CredentialRedaction
{
    /// <summary>What stands where a credential was.</summary>
    public const string Marker = "[redacted]";

    // Shorter values are no key, and replacing them would blot out ordinary words.
    private const int ShortestSecret = 8;

    /// <summary><paramref name="text"/> without the secrets' values and without anything shaped like a credential.</summary>
    /// <param name="text">A diagnostics text.</param>
    /// <param name="secrets">The values of the secrets the run read.</param>
    public static string Redact(string text, IEnumerable<string> secrets)
    {
        ArgumentNullException.ThrowIfNull(text);
        ArgumentNullException.ThrowIfNull(secrets);

        // Longest first: a connection string goes whole before the key inside it is looked for.
        foreach (var secret in ValuesOf(secrets).OrderByDescending(s => s.Length))
        {
            text = text.Replace(secret, Marker, StringComparison.Ordinal);
        }

        text = KeyValue().Replace(text, m => m.Groups["name"].Value + m.Groups["separator"].Value + Marker);
        text = Header().Replace(text, m => m.Groups["name"].Value + m.Groups["separator"].Value + Marker);
        text = Bearer().Replace(text, m => m.Groups["name"].Value + Marker);
        text = UserInfo().Replace(text, m => m.Groups["scheme"].Value + Marker + "@");
        text = Token().Replace(text, Marker);
        return AccountKey().Replace(text, Marker);
    }

    /// <summary>What credential <paramref name="text"/> holds, in words (<c>AccountKey=…</c>, <c>Authorization: …</c>,
    /// <c>an account key</c>), or null when it holds none. A text a user types to be shown and exported (a name,
    /// notes, a run's metadata) is refused when it holds one; one already redacted (<see cref="Marker"/>) holds none.</summary>
    /// <param name="text">Any text.</param>
    public static string? FindCredential(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        foreach (Match pair in KeyValue().Matches(text))
        {
            if (!pair.Groups["value"].Value.StartsWith(Marker, StringComparison.Ordinal))
            {
                return $"{pair.Groups["name"].Value}=…";
            }
        }

        foreach (Match header in Header().Matches(text))
        {
            if (!header.Groups["value"].Value.TrimStart().StartsWith(Marker, StringComparison.Ordinal))
            {
                return "Authorization: …";
            }
        }

        if (Bearer().IsMatch(text))
        {
            return "Bearer …";
        }

        if (UserInfo().Match(text) is { Success: true } userInfo && userInfo.Groups["credential"].Value != Marker)
        {
            return $"a user name and password in an address, {userInfo.Groups["scheme"].Value}…@";
        }

        if (Token().Match(text) is { Success: true } token)
        {
            return token.Value.StartsWith("eyJ", StringComparison.Ordinal) ? "a JSON web token" : $"a token, {token.Value[..token.Value.IndexOfAny(['_', '-'])]}…";
        }

        return AccountKey().IsMatch(text) ? "an account key" : null;
    }

    /// <summary>Each secret, and the credentials inside a connection string (<c>AccountKey=…;</c>), as they would appear in a
    /// text.</summary>
    private static IEnumerable<string> ValuesOf(IEnumerable<string> secrets)
    {
        foreach (var secret in secrets)
        {
            if (secret.Length < ShortestSecret)
            {
                continue;
            }

            yield return secret;
            foreach (Match part in KeyValue().Matches(secret))
            {
                if (part.Groups["value"].Value is { Length: >= ShortestSecret } value)
                {
                    yield return value;

                    // An SDK may write a key URL-escaped (a SAS signature always is).
                    if (Uri.EscapeDataString(value) is var escaped && escaped != value)
                    {
                        yield return escaped;
                    }
                }
            }
        }
    }

    // name=value in a connection string or a query: an account key, a SAS signature, a password, a shared access key or token.
    // The value ends where a quote ends it, typographic ones too (the audit log quotes names as “…”).
    [GeneratedRegex(@"(?<name>\b(?:AccountKey|SharedAccessKey|SharedAccessSignature|sig|password|pwd|token|access_?key|secret)\b)(?<separator>\s*=\s*)(?<value>[^;&\s""',}“”‘’]+)",
        RegexOptions.IgnoreCase | RegexOptions.CultureInvariant, matchTimeoutMilliseconds: 1000)]
    private static partial Regex KeyValue();

    // A Storage or Cosmos DB account key alone: 64 bytes in Base64, 86 characters and "==".
    [GeneratedRegex(@"(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{86}==(?![A-Za-z0-9+/=])", RegexOptions.CultureInvariant, matchTimeoutMilliseconds: 1000)]
    private static partial Regex AccountKey();

    // An Authorization header, written as a header line ("Authorization: …"), a JSON property ("authorization":"…") or a
    // key=value pair.
    [GeneratedRegex(@"(?<name>\b(?:x-ms-)?authorization\b[""']?)(?<separator>\s*[:=]\s*[""']?)(?<value>[^""'\r\n,}]+)",
        RegexOptions.IgnoreCase | RegexOptions.CultureInvariant, matchTimeoutMilliseconds: 1000)]
    private static partial Regex Header();

    // A bearer token, as an Authorization header's value is written without the header ("Bearer eyJ…"): at least 16
    // characters with a digit among them, so that "Bearer authentication" in a note is no token.
    [GeneratedRegex(@"(?<name>\bBearer\s+)(?<value>(?=[A-Za-z\-._~+/]*[0-9])[A-Za-z0-9\-._~+/]{16,}=*)", RegexOptions.IgnoreCase | RegexOptions.CultureInvariant, matchTimeoutMilliseconds: 1000)]
    private static partial Regex Bearer();

    // An address's user name and password (https://user:secret@host): the scheme, then user:password before the host.
    [GeneratedRegex(@"(?<scheme>\b[A-Za-z][A-Za-z0-9+.\-]*://)(?<credential>[^/\s@:""'“”]+:[^/\s@""'“”]*)@", RegexOptions.CultureInvariant, matchTimeoutMilliseconds: 1000)]
    private static partial Regex UserInfo();

    // Tokens whose shape is known: a JSON web token (three Base64url parts, the first two JSON objects), the dashboard's own
    // (bw_, bwa_, bwi_ and 32 random bytes in Base64url), GitHub's (ghp_, gho_, ghu_, ghs_, ghr_, github_pat_), GitLab's
    // (glpat-), npm's (npm_) and Slack's (xoxb-, xoxp-…).
    [GeneratedRegex(@"\beyJ[A-Za-z0-9_\-]{4,}\.eyJ[A-Za-z0-9_\-]{4,}\.[A-Za-z0-9_\-]*|(?<![A-Za-z0-9_\-])(?:bw[ai]?_[A-Za-z0-9_\-]{43}|gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,}|glpat-[A-Za-z0-9_\-]{20,}|npm_[A-Za-z0-9]{36}|xox[abposr]-[A-Za-z0-9\-]{10,})(?![A-Za-z0-9_\-])",
        RegexOptions.CultureInvariant, matchTimeoutMilliseconds: 1000)]
    private static partial Regex Token();
}
