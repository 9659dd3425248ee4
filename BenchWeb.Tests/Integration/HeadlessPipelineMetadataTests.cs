using System.Net;
using System.Text;
using System.Text.Json.Nodes;
using BenchWeb.Guard.Security;
using BenchWeb.Headless;
using BenchWeb.Tests.Support;
using static BenchWeb.Tests.Integration.RunsApiTests;

namespace BenchWeb.Tests.Integration;

/// <summary>End to end: the headless command runs in what looks like a GitHub Actions job (its variables given as a
/// dictionary, beside secrets of the job), its result file is imported into a real dashboard, and the dashboard keeps, lists,
/// filters and shows where the run came from, with a link to the pipeline run, and none of the job's secrets.</summary>
[IntegrationTest]
public sealed class HeadlessPipelineMetadataTests : IDisposable
{
    private const string Commit = "0123456789abcdef0123456789abcdef01234567";
    private const string Pipeline = "https://github.com/octo-org/bench-app/actions/runs/9876543210";
    private const string Token = "ghs_secretTokenValue";
    private const string Key = "c2VjcmV0LWNvc21vcy1rZXk=";

    private readonly string _directory = Directory.CreateTempSubdirectory("benchweb-pipeline-").FullName;

    [Fact]
    public async Task HeadlessRunInAGitHubJob_ImportedIntoADashboard_StoresListsFiltersAndShowsItsMetadataWithALinkToThePipelineRun()
    {
        var job = new Dictionary<string, string>(StringComparer.Ordinal)
        {
            ["GITHUB_SHA"] = Commit,
            ["GITHUB_REF_NAME"] = "main",
            ["GITHUB_RUN_ID"] = "9876543210",
            ["GITHUB_REPOSITORY"] = "octo-org/bench-app",
            ["GITHUB_TOKEN"] = Token,
            ["COSMOS_KEY"] = Key,
        };
        var profile = Path.Combine(_directory, "profile.json");
        var resultPath = Path.Combine(_directory, "profile.result.json");
        await File.WriteAllTextAsync(profile, ShortPlan("nightly from the pipeline", seconds: 1).ToJson());
        using var output = new StringWriter();

        var code = await HeadlessCommand.RunAsync([profile, "--summary", resultPath, "--meta", "suite=nightly"], output, output,
            configuration: null, createRunner: null, environment: job.GetValueOrDefault, CancellationToken.None);

        Assert.True(code == HeadlessCommand.ExitCompleted, output.ToString());
        var resultFile = await File.ReadAllTextAsync(resultPath);
        Assert.DoesNotContain(Token, resultFile, StringComparison.Ordinal);
        Assert.DoesNotContain(Key, resultFile, StringComparison.Ordinal);

        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);
        using var imported = await http.PostAsync("api/runs/import", new StringContent(resultFile, Encoding.UTF8, "application/json"));
        Assert.True(imported.StatusCode == HttpStatusCode.Created, await imported.Content.ReadAsStringAsync());
        var id = (await ReadAsync(imported))["id"]!.GetValue<long>();

        // Stored: the API reads it back as the pipeline and the command gave it.
        var run = await GetJsonAsync(http, $"api/runs/{id}");
        var expected = new JsonObject
        {
            ["ci"] = "github-actions", ["commit"] = Commit, ["branch"] = "main", ["build"] = "9876543210",
            ["repository"] = "octo-org/bench-app", ["pipeline"] = Pipeline, ["suite"] = "nightly",
        };
        Assert.True(JsonNode.DeepEquals(expected, run["metadata"]), run["metadata"]?.ToJsonString());
        Assert.Equal(id, Assert.Single((await GetJsonAsync(http, $"api/runs?meta=commit%3D{Commit}"))["items"]!.AsArray())!["id"]!.GetValue<long>());

        // Shown: the run page links to the pipeline run, and the runs list finds the run by its commit.
        using var pages = await SignedInPagesAsync(host);
        var page = await TextAsync(pages, $"runs/{id}");
        Assert.Contains("id=\"run-metadata\"", page, StringComparison.Ordinal);
        Assert.Contains($"<a class=\"meta-link\" href=\"{Pipeline}\" target=\"_blank\" rel=\"noopener noreferrer nofollow\">{Pipeline}</a>", page, StringComparison.Ordinal);
        Assert.Contains("data-key=\"commit\"", page, StringComparison.Ordinal);
        Assert.Contains($"href=\"runs?meta=commit%3D{Commit}\"", page, StringComparison.Ordinal);
        Assert.DoesNotContain(Token, page, StringComparison.Ordinal);
        var list = await TextAsync(pages, $"runs?meta=branch%3Dmain");
        Assert.Contains($"<tr data-run=\"{id}\"", list, StringComparison.Ordinal);
        Assert.Contains("id=\"filter-meta\" value=\"branch=main\"", list, StringComparison.Ordinal);
        Assert.DoesNotContain("<tr data-run=", await TextAsync(pages, "runs?meta=branch%3Ddevelop"), StringComparison.Ordinal);
    }

    public void Dispose() => Directory.Delete(_directory, recursive: true);

    /// <summary>A browser's cookie session of a Viewer, signed in with an invitation's link.</summary>
    private static async Task<HttpClient> SignedInPagesAsync(DashboardHost host)
    {
        var token = await host.Get<UserDirectory>().InviteAsync("pipeline pages", BenchWebRoles.Viewer, TestActors.Admin, CancellationToken.None);
        var pages = new HttpClient(new HttpClientHandler { CookieContainer = new CookieContainer() }) { BaseAddress = host.BaseAddress };
        using var signIn = await pages.GetAsync($"signin/local?token={Uri.EscapeDataString(token)}");
        Assert.True(signIn.IsSuccessStatusCode, $"Signing in answered {(int)signIn.StatusCode}.");
        return pages;
    }

    private static async Task<string> TextAsync(HttpClient http, string path)
    {
        using var response = await http.GetAsync(new Uri(path, UriKind.Relative));
        var text = await response.Content.ReadAsStringAsync();
        Assert.True(response.IsSuccessStatusCode, $"GET {path}: {(int)response.StatusCode} {text}");
        return text;
    }
}
