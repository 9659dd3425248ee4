namespace BenchWeb.Tests.Support;

/// <summary>The settings that list an environment variable as a secret a profile may name (<c>BenchWeb:EnvironmentSecrets</c>):
/// for one target kind and setting, bound to one server.</summary>
public static class ListedSecrets
{
    /// <summary>The settings listing <paramref name="name"/>, to pass to a test host (add others to the dictionary).</summary>
    public static Dictionary<string, string?> Settings(string name, string kind, string setting, string host) => new()
    {
        [$"BenchWeb:EnvironmentSecrets:{name}:Kind"] = kind,
        [$"BenchWeb:EnvironmentSecrets:{name}:Setting"] = setting,
        [$"BenchWeb:EnvironmentSecrets:{name}:Host"] = host,
    };
}
