using System.ComponentModel.DataAnnotations;
using BenchEngine.Targets;

namespace BenchWeb.Configuration;

/// <summary>An environment variable a dashboard run may read as a secret (<c>BenchWeb:EnvironmentSecrets:&lt;NAME&gt;</c>):
/// the one target kind and setting it may stand for, and the server it is bound to, as a stored secret is bound to the
/// server its profile named when it was stored. Any other use of the variable is refused at launch, naming it.</summary>
public sealed class EnvironmentSecretOptions
{
    /// <summary>The target kind it is for, e.g. <c>CosmosSql</c>.</summary>
    public string? Kind { get; set; }

    /// <summary>The secret setting it stands for, by its path, e.g. <c>Target.Cosmos.KeySecret</c>.</summary>
    public string? Setting { get; set; }

    /// <summary>The server it is bound to: a host (any port) or <c>host:port</c>, e.g. <c>acme.documents.azure.com</c>. A
    /// key goes only to a plan that names this server; a connection string must name it itself.</summary>
    public string? Host { get; set; }

    /// <summary>Every reason the entry for <paramref name="name"/> cannot be used, in words naming it.</summary>
    internal IEnumerable<ValidationResult> Validate(string name)
    {
        var where = $"{BenchWebOptions.SectionName}:{nameof(BenchWebOptions.EnvironmentSecrets)}:{name}";
        var kind = Kind is { Length: > 0 } given ? TargetRegistry.Parse(given) : (TargetKind?)null;
        if (kind is null || !TargetRegistry.IsKnown(kind.Value))
        {
            yield return new($"{where}:{nameof(Kind)} must name the target kind the secret is for, one of {TargetRegistry.Names}.");
        }
        else if (Setting is null || kind.Value.Module.FieldAt(Setting) is not { Input: TargetInput.Secret })
        {
            var settings = kind.Value.Module.Fields.Where(f => f.Input == TargetInput.Secret).Select(f => f.Path).ToList();
            yield return new(settings.Count == 0
                ? $"{where}: {kind.Value.Module.DisplayName} reads no secret."
                : $"{where}:{nameof(Setting)} must name the secret setting it stands for: {string.Join(" or ", settings)}.");
        }

        if (ServerOf(Host) is null)
        {
            yield return new($"{where}:{nameof(Host)} must name the server the secret is bound to: a host name or host:port, e.g. acme.documents.azure.com.");
        }
    }

    /// <summary>The server a <see cref="Host"/> names (scheme-less: host and, when given, port); null when it names none.</summary>
    internal static Uri? ServerOf(string? host) =>
        host is { Length: > 0 } && !host.Contains("://", StringComparison.Ordinal) && !host.Contains('/', StringComparison.Ordinal)
            && Uri.TryCreate($"tcp://{host.Trim()}", UriKind.Absolute, out var server) && server.IdnHost.Length > 0 && server.UserInfo.Length == 0
            ? server
            : null;
}
