using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Hosting;

/// <summary>What the image must be, read from the Dockerfile: built with the SDK and run on the ASP.NET Core runtime alone,
/// as a user that is not root, from files that are in the repository and reach the build context.</summary>
[UnitTest]
public sealed class DockerfileTests
{
    private static readonly List<Instruction> Instructions = Read(Repository.PathOf("Dockerfile"));

    [Fact]
    public void Dockerfile_IsMultiStage_AndItsFinalStageIsTheAspNetRuntime()
    {
        var stages = Instructions.Where(i => i.Name == "FROM").Select(i => i.Arguments[0]).ToList();

        Assert.True(stages.Count >= 2, $"one stage only: {string.Join(", ", stages)}");
        Assert.StartsWith("mcr.microsoft.com/dotnet/sdk:", stages[0], StringComparison.Ordinal);
        Assert.StartsWith("mcr.microsoft.com/dotnet/aspnet:", stages[^1], StringComparison.Ordinal);
    }

    [Fact]
    public void FinalStage_RunsAsAUserThatIsNotRoot_OnPort8080()
    {
        var final = FinalStage();

        // The last USER is the one the entry point runs as.
        var user = final.LastOrDefault(i => i.Name == "USER")?.Arguments[0];
        Assert.NotNull(user);
        Assert.DoesNotMatch(@"^(root|0)(:.*)?$", user);
        Assert.Contains(final, i => i.Name == "EXPOSE" && i.Arguments.Contains("8080"));
        Assert.Contains(final, i => i.Name == "ENV" && i.Arguments.Contains("ASPNETCORE_HTTP_PORTS=8080"));
    }

    [Fact]
    public void EveryCopiedPath_IsInTheRepository_AndNotLeftOutOfTheBuildContext()
    {
        var ignored = File.ReadAllLines(Repository.PathOf(".dockerignore"))
            .Select(l => l.Trim())
            .Where(l => l.Length > 0 && !l.StartsWith('#'))
            .ToList();
        var sources = Instructions
            .Where(i => i.Name == "COPY" && !i.Arguments.Any(a => a.StartsWith("--from=", StringComparison.Ordinal)))
            .SelectMany(i => i.Arguments.Where(a => !a.StartsWith("--", StringComparison.Ordinal)).SkipLast(1))
            .ToList();

        Assert.NotEmpty(sources);
        Assert.All(sources, source => Assert.True(File.Exists(Repository.PathOf(source)) || Directory.Exists(Repository.PathOf(source)), $"COPY {source}: not in the repository"));
        Assert.All(sources, source => Assert.False(ignored.Any(pattern => Excludes(pattern, source.TrimEnd('/'))), $"COPY {source}: left out by .dockerignore"));
    }

    [Fact]
    public void BuildStage_HasNpm_ForTheBuildsNpmStep()
    {
        var targets = File.ReadAllText(Repository.PathOf("BenchWeb/build/BrowserAssets.targets"));
        var build = Instructions.TakeWhile((i, index) => index == 0 || i.Name != "FROM").ToList();

        Assert.Contains("npm ci", targets, StringComparison.Ordinal);
        Assert.Contains(build, i => i.Name == "RUN" && i.Arguments.Contains("npm"));
        Assert.Contains(build, i => i.Name == "RUN" && string.Join(' ', i.Arguments).Contains("dotnet publish BenchWeb", StringComparison.Ordinal));
    }

    private static List<Instruction> FinalStage() => Instructions[Instructions.FindLastIndex(i => i.Name == "FROM")..];

    /// <summary>Whether a .dockerignore line leaves the path out: a path is left out with the folders it is in, and
    /// <c>**/</c> stands for any folders.</summary>
    private static bool Excludes(string pattern, string path)
    {
        var segments = path.Split('/');
        var ancestors = Enumerable.Range(1, segments.Length).Select(n => string.Join('/', segments.Take(n)));
        return pattern.StartsWith("**/", StringComparison.Ordinal)
            ? segments.Contains(pattern[3..], StringComparer.Ordinal)
            : ancestors.Contains(pattern.TrimEnd('/'), StringComparer.Ordinal);
    }

    /// <summary>The instructions, with continued lines joined and comments left out.</summary>
    private static List<Instruction> Read(string path)
    {
        var instructions = new List<Instruction>();
        var pending = "";
        foreach (var raw in File.ReadAllLines(path))
        {
            var line = raw.Trim();
            if (line.StartsWith('#') || (line.Length == 0 && pending.Length == 0))
            {
                continue;
            }

            if (line.EndsWith('\\'))
            {
                pending += line[..^1] + " ";
                continue;
            }

            var text = pending + line;
            pending = "";
            var words = text.Split((char[])[' ', '\t'], StringSplitOptions.RemoveEmptyEntries);
            if (words.Length > 0)
            {
                instructions.Add(new Instruction(words[0].ToUpperInvariant(), [.. words.Skip(1)]));
            }
        }

        return instructions;
    }

    private sealed record Instruction(string Name, IReadOnlyList<string> Arguments);
}
