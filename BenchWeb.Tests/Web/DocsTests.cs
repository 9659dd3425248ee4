using System.Text.RegularExpressions;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Web;

/// <summary>The README and the documents in <c>docs/</c>: every link to a file of the repository and every anchor within
/// the docs leads somewhere, every image shown is one the browser tests take (<see cref="DocsScreenshots"/>), and the README
/// stays a page: the two commands, a quick tour and a map of the docs.</summary>
[UnitTest]
public sealed partial class DocsTests
{
    private static IEnumerable<string> Documents =>
        [Repository.PathOf("README.md"), .. Directory.GetFiles(Repository.PathOf("docs"), "*.md")];

    [Fact]
    public void EveryLinkToAFileOrAHeading_LeadsSomewhere()
    {
        var broken = new List<string>();
        foreach (var document in Documents)
        {
            var text = WithoutCode(File.ReadAllText(document));
            foreach (Match link in Link().Matches(text))
            {
                var target = link.Groups["target"].Value;
                if (target.StartsWith("http://", StringComparison.Ordinal) || target.StartsWith("https://", StringComparison.Ordinal) || target.StartsWith("mailto:", StringComparison.Ordinal))
                {
                    continue;
                }

                var hash = target.IndexOf('#', StringComparison.Ordinal);
                var file = hash < 0 ? target : target[..hash];
                var anchor = hash < 0 ? null : target[(hash + 1)..];
                var path = file.Length == 0 ? document : Path.GetFullPath(Path.Combine(Path.GetDirectoryName(document)!, file));
                if (!File.Exists(path) && !Directory.Exists(path))
                {
                    broken.Add($"{Path.GetFileName(document)}: {target} (no such file)");
                }
                else if (anchor is not null && path.EndsWith(".md", StringComparison.Ordinal) && !Anchors(File.ReadAllText(path)).Contains(anchor))
                {
                    broken.Add($"{Path.GetFileName(document)}: {target} (no such heading)");
                }
            }
        }

        Assert.True(broken.Count == 0, string.Join('\n', broken));
    }

    [Fact]
    public void EveryImageInTheDocs_IsAScreenshotTheBrowserTestsTake_AndIsShown()
    {
        var taken = Directory.GetFiles(Repository.PathOf("BenchWeb.Tests"), "*.cs", SearchOption.AllDirectories)
            .Where(f => !f.Contains($"{Path.DirectorySeparatorChar}obj{Path.DirectorySeparatorChar}", StringComparison.Ordinal)
                && !f.Contains($"{Path.DirectorySeparatorChar}bin{Path.DirectorySeparatorChar}", StringComparison.Ordinal))
            .SelectMany(f => Taken().Matches(File.ReadAllText(f)).Select(m => DocsScreenshots.Prefix + m.Groups["name"].Value + ".png"))
            .ToHashSet();
        var images = Directory.GetFiles(Repository.PathOf("docs/images")).Select(Path.GetFileName).ToList();
        var shown = string.Concat(Documents.Select(File.ReadAllText));

        Assert.NotEmpty(images);
        Assert.All(images, image => Assert.True(taken.Contains(image!), $"docs/images/{image} is no screenshot a browser test takes ({string.Join(", ", taken)})"));
        Assert.All(images, image => Assert.Contains($"images/{image}", shown, StringComparison.Ordinal));
    }

    [Fact]
    public void Readme_OpensWithTheTwoCommands_AndMapsEveryDocument()
    {
        var readme = File.ReadAllText(Repository.PathOf("README.md"));

        var commands = readme.IndexOf("```bash", StringComparison.Ordinal);
        Assert.InRange(commands, 0, 1_000);
        Assert.Contains("dotnet run --project BenchWeb", readme[commands..], StringComparison.Ordinal);
        Assert.Contains("./test.sh", readme[commands..readme.IndexOf("```", commands + 7, StringComparison.Ordinal)], StringComparison.Ordinal);
        foreach (var document in Directory.GetFiles(Repository.PathOf("docs"), "*.md"))
        {
            Assert.Contains($"](docs/{Path.GetFileName(document)})", readme, StringComparison.Ordinal);
        }

        // A page, not a manual: the reference lives in docs/.
        Assert.True(readme.Length < 12_000, $"The README is {readme.Length:N0} characters long.");
    }

    // GitHub's anchors: the heading in lower case, without punctuation other than '-' and '_', spaces as '-'.
    private static HashSet<string> Anchors(string markdown) =>
        [.. Heading().Matches(WithoutCode(markdown)).Select(m => Punctuation().Replace(m.Groups["title"].Value.Trim().ToLowerInvariant(), "").Replace(' ', '-'))];

    // Fenced code holds no links (and its '#' lines are no headings).
    private static string WithoutCode(string markdown) => Fence().Replace(markdown, "");

    [GeneratedRegex(@"\]\((?<target>[^)\s]+)\)")]
    private static partial Regex Link();

    [GeneratedRegex(@"^#{1,6} (?<title>.+)$", RegexOptions.Multiline)]
    private static partial Regex Heading();

    [GeneratedRegex(@"[^\p{L}\p{N} _-]")]
    private static partial Regex Punctuation();

    [GeneratedRegex(@"^\s*```.*?^\s*```", RegexOptions.Multiline | RegexOptions.Singleline)]
    private static partial Regex Fence();

    [GeneratedRegex(@"DocsScreenshots\.TakeAsync\(Page, ""(?<name>[a-z0-9-]+)""")]
    private static partial Regex Taken();
}
