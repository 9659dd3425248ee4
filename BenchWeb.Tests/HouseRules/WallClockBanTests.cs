using System.Reflection;
using System.Xml.Linq;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.HouseRules;

/// <summary>The wall clock is banned in the engine and the dashboard: both projects load the banned-API analyzer with the
/// repository's <c>BannedSymbols.txt</c>, whose every line fails the build where it is used (RS0030, a warning, and the
/// build's warnings are errors). The file bans each way of reading or waiting on the wall clock, each with a message that
/// points to <see cref="TimeProvider"/>, and each of its lines names a member that exists: the analyzer passes over one it
/// cannot find without a word.</summary>
[UnitTest]
public sealed class WallClockBanTests
{
    private const string Analyzer = "Microsoft.CodeAnalysis.BannedApiAnalyzers";

    private const string BannedSymbols = "BannedSymbols.txt";

    private static readonly Lazy<Dictionary<string, string>> Bans = new(ReadBans);

    public static TheoryData<string> WallClock => new()
    {
        "P:System.DateTime.Now",
        "P:System.DateTime.UtcNow",
        "P:System.DateTime.Today",
        "P:System.DateTimeOffset.Now",
        "P:System.DateTimeOffset.UtcNow",
        "P:System.Environment.TickCount",
        "P:System.Environment.TickCount64",
        "M:System.Threading.Tasks.Task.Delay(System.Int32)",
        "M:System.Threading.Tasks.Task.Delay(System.Int32,System.Threading.CancellationToken)",
        "M:System.Threading.Tasks.Task.Delay(System.TimeSpan)",
        "M:System.Threading.Tasks.Task.Delay(System.TimeSpan,System.Threading.CancellationToken)",
        "M:System.Threading.Tasks.Task.WaitAsync(System.TimeSpan)",
        "M:System.Threading.Tasks.Task.WaitAsync(System.TimeSpan,System.Threading.CancellationToken)",
        "M:System.Threading.Tasks.Task`1.WaitAsync(System.TimeSpan)",
        "M:System.Threading.Tasks.Task`1.WaitAsync(System.TimeSpan,System.Threading.CancellationToken)",
        "M:System.Threading.Timer.#ctor(System.Threading.TimerCallback)",
        "M:System.Threading.Timer.#ctor(System.Threading.TimerCallback,System.Object,System.Int32,System.Int32)",
        "M:System.Threading.Timer.#ctor(System.Threading.TimerCallback,System.Object,System.Int64,System.Int64)",
        "M:System.Threading.Timer.#ctor(System.Threading.TimerCallback,System.Object,System.TimeSpan,System.TimeSpan)",
        "M:System.Threading.Timer.#ctor(System.Threading.TimerCallback,System.Object,System.UInt32,System.UInt32)",
        "M:System.Threading.PeriodicTimer.#ctor(System.TimeSpan)",
        "M:System.Threading.CancellationTokenSource.#ctor(System.Int32)",
        "M:System.Threading.CancellationTokenSource.#ctor(System.TimeSpan)",
        "M:System.Threading.Thread.Sleep(System.Int32)",
        "M:System.Threading.Thread.Sleep(System.TimeSpan)",
    };

    [Theory]
    [InlineData("BenchEngine/BenchEngine.csproj")]
    [InlineData("BenchWeb/BenchWeb.csproj")]
    public void Project_LoadsTheAnalyzer_WithTheRepositorysBannedSymbols(string project)
    {
        var path = Repository.PathOf(project);
        var document = XDocument.Load(path);

        var reference = Assert.Single(document.Descendants("PackageReference"), r => (string?)r.Attribute("Include") == Analyzer);
        Assert.Equal("all", (string?)reference.Attribute("PrivateAssets"));
        var file = Assert.Single(document.Descendants("AdditionalFiles"), f => ((string?)f.Attribute("Include"))?.EndsWith(BannedSymbols, StringComparison.Ordinal) == true);
        var included = Path.GetFullPath(Path.Combine(Path.GetDirectoryName(path)!, ((string)file.Attribute("Include")!).Replace('\\', '/')));
        Assert.Equal(Repository.PathOf(BannedSymbols), included);
        Assert.DoesNotContain("RS0030", string.Concat(document.Descendants("NoWarn").Select(n => n.Value)), StringComparison.Ordinal);
    }

    [Fact]
    public void TheAnalyzer_HasAVersion_AndItsWarningsFailTheBuild()
    {
        var versions = XDocument.Load(Repository.PathOf("Directory.Packages.props"));
        var build = XDocument.Load(Repository.PathOf("Directory.Build.props"));

        var version = Assert.Single(versions.Descendants("PackageVersion"), v => (string?)v.Attribute("Include") == Analyzer);
        Assert.False(string.IsNullOrWhiteSpace((string?)version.Attribute("Version")));
        Assert.Equal("true", build.Descendants("TreatWarningsAsErrors").Single().Value);
        Assert.DoesNotContain("RS0030", build.Descendants("NoWarn").Single().Value, StringComparison.Ordinal);
        Assert.DoesNotContain("RS0030", File.ReadAllText(Repository.PathOf(".editorconfig")), StringComparison.Ordinal);
    }

    [Theory]
    [MemberData(nameof(WallClock))]
    public void BannedSymbols_BanTheWallClock_PointingToTimeProvider(string member)
    {
        Assert.True(Bans.Value.TryGetValue(member, out var message), $"{member} is not in {BannedSymbols}");
        Assert.Contains("TimeProvider", message, StringComparison.Ordinal);
    }

    [Fact]
    public void EveryBan_NamesAMemberThatExists()
    {
        Assert.NotEmpty(Bans.Value);
        Assert.All(Bans.Value.Keys, member => Assert.True(Exists(member), $"{member}: no such member, so nothing is banned"));
    }

    /// <summary>The file's bans by documentation ID, with their messages; a line starting with // is a comment.</summary>
    private static Dictionary<string, string> ReadBans() =>
        File.ReadAllLines(Repository.PathOf(BannedSymbols))
            .Where(l => !string.IsNullOrWhiteSpace(l) && !l.StartsWith("//", StringComparison.Ordinal))
            .Select(l => l.Split(';', 2))
            .ToDictionary(parts => parts[0].Trim(), parts => parts.Length > 1 ? parts[1] : "");

    /// <summary>Finds a type (T:), property (P:) or method (M:, #ctor for a constructor) by its documentation ID. The wall
    /// clock's members are all in the core library, which <see cref="Type.GetType(string)"/> searches.</summary>
    private static bool Exists(string member)
    {
        var open = member.IndexOf('(', StringComparison.Ordinal);
        var name = open < 0 ? member[2..] : member[2..open];
        if (member.StartsWith("T:", StringComparison.Ordinal))
        {
            return Type.GetType(name) is not null;
        }

        string[] parameterNames = open < 0 ? [] : member[(open + 1)..^1].Split(',');
        var parameters = parameterNames.Select(Type.GetType).OfType<Type>().ToArray();
        var type = Type.GetType(name[..name.LastIndexOf('.')]);
        var memberName = name[(name.LastIndexOf('.') + 1)..];
        const BindingFlags everyPublic = BindingFlags.Public | BindingFlags.Static | BindingFlags.Instance;
        return type is not null && parameters.Length == parameterNames.Length && member[..2] switch
        {
            "P:" => type.GetProperty(memberName, everyPublic) is not null,
            "M:" when memberName == "#ctor" => type.GetConstructor(parameters) is not null,
            "M:" => type.GetMethod(memberName, everyPublic, parameters) is not null,
            _ => false,
        };
    }
}
