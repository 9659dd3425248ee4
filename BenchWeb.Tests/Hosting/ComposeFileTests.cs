using System.Diagnostics;
using BenchWeb.Tests.Support;
using Xunit.Abstractions;

namespace BenchWeb.Tests.Hosting;

/// <summary>docker-compose.yml as Compose itself reads it (<c>docker-compose config</c>, which needs no Docker engine):
/// valid for every profile, each profile enabling its services, and every app service built from the Dockerfile. Run
/// with Debian's docker-compose 1.29 (test.sh installs it and sets <c>BENCHWEB_DOCKER_COMPOSE</c>), the oldest Compose
/// the file is written for: what it takes, Compose v2 takes too.</summary>
[IntegrationTest]
public sealed class ComposeFileTests(ITestOutputHelper output)
{
    private const string ComposeVariable = "BENCHWEB_DOCKER_COMPOSE";

    /// <summary>The services that run BenchWeb itself.</summary>
    private static readonly string[] AppServices = ["benchweb", "shared-web", "shared-agent-1", "shared-agent-2", "shared-agent-3"];

    /// <summary>Each profile ("" for none) and the services it starts: those without a profile, and its own.</summary>
    public static TheoryData<string, string[]> Profiles => new()
    {
        { "", ["benchweb"] },
        { "emulators", ["benchweb", "azurite", "cosmos"] },
        { "shared", ["benchweb", "postgres", "redis", "shared-web", "shared-agent-1", "shared-agent-2", "shared-agent-3"] },
    };

    [SkippableTheory]
    [MemberData(nameof(Profiles))]
    public async Task Config_IsValidWithoutWarnings_AndEnablesTheProfilesServices(string profile, string[] expected)
    {
        string[] selection = profile.Length == 0 ? [] : ["--profile", profile];

        var check = await ComposeAsync([.. selection, "config", "-q"]);
        var config = Services((await ComposeAsync([.. selection, "config"])).StandardOutput);
        var listed = Lines((await ComposeAsync([.. selection, "config", "--services"])).StandardOutput);

        Assert.True(check.ExitCode == 0, $"docker-compose config -q exited {check.ExitCode}: {check.StandardError}");
        Assert.Equal("", check.StandardError);
        var enabled = config.Where(s => s.Value.Profiles.Count == 0 || s.Value.Profiles.Contains(profile)).Select(s => s.Key);
        Assert.Equal(expected.Order(StringComparer.Ordinal), enabled.Order(StringComparer.Ordinal));
        // Compose v2 lists the services the profiles enable; docker-compose 1.29 lists every service whatever the profiles.
        Assert.Subset(listed.ToHashSet(), expected.ToHashSet());
        Assert.Subset(config.Keys.ToHashSet(), listed.ToHashSet());
    }

    [SkippableFact]
    public async Task EveryAppService_IsBuiltFromTheDockerfile_AtTheRepositoryRoot()
    {
        var config = Services((await ComposeAsync(["--profile", "emulators", "--profile", "shared", "config"])).StandardOutput);

        var built = config.Where(s => s.Value.Values.ContainsKey("build.context")).Select(s => s.Key).Order(StringComparer.Ordinal);
        Assert.Equal(AppServices.Order(StringComparer.Ordinal), built);
        Assert.All(AppServices, name =>
        {
            // Compose resolves `context: .` against the compose file's folder.
            Assert.Equal(Path.TrimEndingDirectorySeparator(Repository.Root), Path.TrimEndingDirectorySeparator(config[name].Values["build.context"]));
            Assert.Equal("Dockerfile", config[name].Values["build.dockerfile"]);
            Assert.True(config[name].Values.ContainsKey("healthcheck.test"), $"{name}: no health check");
        });
    }

    [SkippableFact]
    public async Task SharedProfile_IsOneWebInstanceAndThreeAgents_OnPostgreSqlAndRedis()
    {
        var config = Services((await ComposeAsync(["--profile", "shared", "config"])).StandardOutput);
        var shared = AppServices.Where(name => config[name].Profiles.Contains("shared")).ToList();

        Assert.Equal("Embedded", config["benchweb"].Values["environment.BenchWeb__Mode"]);
        Assert.All(shared, name =>
        {
            Assert.Equal("Shared", config[name].Values["environment.BenchWeb__Mode"]);
            Assert.StartsWith("Host=postgres;", config[name].Values["environment.ConnectionStrings__BenchDb"], StringComparison.Ordinal);
            Assert.Equal("redis:6379", config[name].Values["environment.ConnectionStrings__Redis"]);
        });
        Assert.Equal(["Agent", "Agent", "Agent", "Web"], shared.Select(name => config[name].Values["environment.BenchWeb__Agent__Role"]).Order(StringComparer.Ordinal));
    }

    private async Task<ComposeResult> ComposeAsync(IEnumerable<string> arguments)
    {
        var compose = Environment.GetEnvironmentVariable(ComposeVariable);
        if (string.IsNullOrEmpty(compose))
        {
            const string reason = $"skipped: {ComposeVariable} is not set (test.sh sets it, installing Debian's docker-compose when missing)";
            output.WriteLine(reason);
            Console.WriteLine($"{nameof(ComposeFileTests)} {reason}");
            Skip.If(true, reason);
        }

        var start = new ProcessStartInfo(compose!)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            WorkingDirectory = Repository.Root,
        };
        foreach (var argument in (string[])["-f", Repository.PathOf("docker-compose.yml"), .. arguments])
        {
            start.ArgumentList.Add(argument);
        }

        using var process = Process.Start(start) ?? throw new InvalidOperationException($"{compose} did not start.");
        var standardOutput = process.StandardOutput.ReadToEndAsync();
        var standardError = process.StandardError.ReadToEndAsync();
        using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(1));
        await process.WaitForExitAsync(timeout.Token);
        var result = new ComposeResult(process.ExitCode, await standardOutput, await standardError);
        output.WriteLine($"docker-compose {string.Join(' ', arguments)}: exit {result.ExitCode}{(result.StandardError.Length > 0 ? ", " + result.StandardError : "")}");
        return result;
    }

    private static List<string> Lines(string text) => [.. text.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)];

    /// <summary>The services of <c>docker-compose config</c>'s output, which is normalised YAML: two spaces a level,
    /// lists at their key's indentation. Kept per service: top-level values and those one level down
    /// (<c>build.context</c>, <c>environment.BenchWeb__Mode</c>, <c>healthcheck.test</c>), and the profiles.</summary>
    private static Dictionary<string, ComposeService> Services(string config)
    {
        var services = new Dictionary<string, ComposeService>(StringComparer.Ordinal);
        var inServices = false;
        ComposeService? service = null;
        string? key = null;
        foreach (var line in config.Split('\n'))
        {
            var text = line.Trim();
            var indent = line.Length - line.TrimStart(' ').Length;
            if (text.Length == 0)
            {
                continue;
            }

            if (indent == 0)
            {
                inServices = text == "services:";
                service = null;
            }
            else if (inServices && indent == 2)
            {
                service = new ComposeService();
                services[text.TrimEnd(':')] = service;
                key = null;
            }
            else if (service is not null && indent == 4 && text.StartsWith("- ", StringComparison.Ordinal))
            {
                if (key == "profiles")
                {
                    service.Profiles.Add(text[2..]);
                }
            }
            else if (service is not null && indent == 4)
            {
                (key, var value) = Split(text);
                service.Values[key] = value;
            }
            else if (service is not null && indent == 6 && key is not null)
            {
                var (name, value) = Split(text);
                service.Values[$"{key}.{name}"] = value;
            }
        }

        return services;
    }

    private static (string Key, string Value) Split(string text)
    {
        var colon = text.IndexOf(':', StringComparison.Ordinal);
        var value = colon < 0 ? "" : text[(colon + 1)..].Trim();
        if (value.Length >= 2 && (value[0] is '\'' or '"') && value[^1] == value[0])
        {
            value = value[1..^1];
        }

        return (colon < 0 ? text : text[..colon], value);
    }

    private sealed record ComposeResult(int ExitCode, string StandardOutput, string StandardError);

    private sealed class ComposeService
    {
        public Dictionary<string, string> Values { get; } = new(StringComparer.Ordinal);

        public List<string> Profiles { get; } = [];
    }
}
