using System.Net;
using System.Text.Json.Nodes;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Data;
using BenchWeb.Guard.Audit;
using BenchWeb.Guard.Security;
using BenchWeb.Profiles;
using BenchWeb.Tests.Support;
using Microsoft.EntityFrameworkCore;
using static BenchWeb.Tests.Integration.RunsApiTests;

namespace BenchWeb.Tests.Web.Security;

/// <summary>A profile stored before endpoints with a user name or password were refused, and a run whose stored plan has
/// such an endpoint (imported before the rule), written straight into the database as old rows would be: no page, API answer
/// or export shows the password or the user name, and launching the profile is refused on the endpoint's field.</summary>
[IntegrationTest]
public sealed class StoredEndpointCredentialsTests
{
    private const string UserName = "olduser";
    private const string Password = "S3cr3t-Pw";
    private const string Shown = "https://acme.documents.azure.com:443/";

    [Fact]
    public async Task OldEndpointWithUserAndPassword_IsShownNowhere_AndItsProfileCannotLaunch()
    {
        await using var host = await DashboardHost.StartAsync();
        var plan = SeededRuns.Plan(TargetKind.CosmosSql, "old account");
        plan = plan with { Target = plan.Target with { Cosmos = plan.Target.Cosmos with { Endpoint = $"https://{UserName}:{Password}@acme.documents.azure.com:443/" } } };
        var profileId = await OldProfileAsync(host, plan);
        var databases = host.Get<IDbContextFactory<BenchDbContext>>();
        var runId = await SeededRuns.AddAsync(databases, plan, SeededRuns.Seconds(5, 1_000, 5.7));
        var otherRunId = await SeededRuns.AddAsync(databases, SeededRuns.Plan(TargetKind.CosmosSql, "new account"), SeededRuns.Seconds(5, 1_000, 5.7));
        using var viewer = await host.CreateClientAsync(BenchWebRoles.Viewer);
        using var runner = await host.CreateClientAsync(BenchWebRoles.Runner);
        using var runnerPages = await SignedInPagesAsync(host, BenchWebRoles.Runner);

        var profile = await GetJsonAsync(viewer, $"api/profiles/{profileId}");
        var run = await GetJsonAsync(viewer, $"api/runs/{runId}");
        var export = await GetJsonAsync(viewer, $"api/runs/{runId}/export.json");
        Assert.Equal(Shown, profile["plan"]!["target"]!["cosmos"]!["endpoint"]!.GetValue<string>());
        Assert.Equal(Shown, run["plan"]!["target"]!["cosmos"]!["endpoint"]!.GetValue<string>());
        Assert.Equal(Shown, export["plan"]!["target"]!["cosmos"]!["endpoint"]!.GetValue<string>());
        var answers = new Dictionary<string, string>
        {
            ["api/profiles"] = await TextAsync(viewer, "api/profiles"),
            [$"api/profiles/{profileId}"] = profile.ToJsonString(),
            [$"api/runs/{runId}"] = run.ToJsonString(),
            [$"api/runs/{runId}/export.json"] = export.ToJsonString(),
            [$"api/runs/{runId}/export.csv"] = await TextAsync(viewer, $"api/runs/{runId}/export.csv"),
            ["compare.csv"] = await TextAsync(viewer, $"compare.csv?runs={runId},{otherRunId}"),
            // Rendered as a browser gets them: the run page (its settings and its plan), a comparison, the editor.
            [$"runs/{runId}"] = await TextAsync(runnerPages, $"runs/{runId}"),
            ["compare"] = await TextAsync(runnerPages, $"compare?runs={runId},{otherRunId}"),
            [$"profiles/{profileId}"] = await TextAsync(runnerPages, $"profiles/{profileId}"),
        };
        Assert.Contains("acme.documents.azure.com", answers[$"runs/{runId}"], StringComparison.Ordinal);
        Assert.Contains("acme.documents.azure.com", answers["compare"], StringComparison.Ordinal);
        Assert.Contains("acme.documents.azure.com", answers[$"profiles/{profileId}"], StringComparison.Ordinal);
        foreach (var (where, text) in answers)
        {
            Assert.False(text.Contains(Password, StringComparison.Ordinal) || text.Contains(UserName, StringComparison.Ordinal), $"{where} shows the endpoint's credentials.");
        }

        // Launching the stored profile is refused on the endpoint's field; the refusal and its audit entry name the host only.
        using var launch = await PostJsonAsync(runner, "api/runs", new { profileId });
        var problem = await AssertProblemAsync(launch, HttpStatusCode.BadRequest);
        var message = Assert.Single(problem["errors"]!["Target.Cosmos.Endpoint"]!.AsArray())!.GetValue<string>();
        Assert.Contains("carries a user name or password", message, StringComparison.Ordinal);
        Assert.DoesNotContain(Password, problem.ToJsonString(), StringComparison.Ordinal);

        // Saved again from the editor (which shows the endpoint without them), the profile drops them, and the audit log
        // says so without quoting them.
        var form = new ProfileDraft(RunPlan.FromJson(ShownPlan.Json(plan.ToJson())), null, null);
        await host.Get<ProfileService>().SaveAsync(profileId, form, TestActors.Runner, CancellationToken.None);
        Assert.Equal(Shown, (await GetJsonAsync(viewer, $"api/profiles/{profileId}"))["plan"]!["target"]!["cosmos"]!["endpoint"]!.GetValue<string>());
        using var admin = await host.CreateClientAsync(BenchWebRoles.Admin);
        var audit = await TextAsync(admin, "api/audit?pageSize=100");
        Assert.Contains(AuditActions.RunRefused, audit, StringComparison.Ordinal);
        Assert.Contains("A user name or password removed from an endpoint", audit, StringComparison.Ordinal);
        Assert.DoesNotContain(Password, audit, StringComparison.Ordinal);
        Assert.DoesNotContain(UserName, audit, StringComparison.Ordinal);
    }

    [Fact]
    public async Task OldTextsQuotingAnEndpointWithUserAndPassword_ShowItWithoutThem()
    {
        // An audit entry written when profile.changed quoted endpoints as they were saved, and a run that failed when the
        // target's message quoted its endpoint, both before such endpoints were refused.
        await using var host = await DashboardHost.StartAsync();
        var databases = host.Get<IDbContextFactory<BenchDbContext>>();
        var quoted = $"https://{UserName}:{Password}@acme.documents.azure.com:443/";
        await using (var db = await host.OpenDatabaseAsync())
        {
            db.AuditEntries.Add(new AuditEntryEntity
            {
                At = SeededRuns.Start, UserId = "u1", UserName = "runner", Role = BenchWebRoles.Runner, Via = "page", Action = AuditActions.ProfileChanged,
                Subject = "profile 1", Details = $"Target.Cosmos.Endpoint: \"https://acme.documents.azure.com:443/\" → \"{quoted}\"",
            });
            await db.SaveChangesAsync();
        }

        var runId = await SeededRuns.AddAsync(
            databases, SeededRuns.Plan(TargetKind.CosmosSql, "old failure"), SeededRuns.Seconds(2, 100, 5.7), RunStatus.Failed,
            failureReason: $"Cannot open Cosmos DB container 'benchweb/items' at {quoted}: no response");
        using var admin = await host.CreateClientAsync(BenchWebRoles.Admin);
        using var adminPages = await SignedInPagesAsync(host, BenchWebRoles.Admin);

        var answers = new Dictionary<string, string>
        {
            ["api/audit"] = await TextAsync(admin, "api/audit?pageSize=100"),
            ["audit csv"] = await TextAsync(admin, "api/audit/export.csv"),
            ["admin/audit"] = await TextAsync(adminPages, "admin/audit"),
            [$"api/runs/{runId}"] = await TextAsync(admin, $"api/runs/{runId}"),
            [$"api/runs/{runId}/export.json"] = await TextAsync(admin, $"api/runs/{runId}/export.json"),
            [$"runs/{runId}"] = await TextAsync(adminPages, $"runs/{runId}"),
        };
        foreach (var (where, text) in answers)
        {
            Assert.Contains("acme.documents.azure.com", text, StringComparison.Ordinal);
            Assert.False(text.Contains(Password, StringComparison.Ordinal) || text.Contains(UserName, StringComparison.Ordinal), $"{where} shows the endpoint's credentials.");
        }
    }

    [Theory]
    [InlineData("Cannot open 'db/c' at https://user:secret@host.example/: no response", "Cannot open 'db/c' at https://host.example/: no response")]
    [InlineData("Target.Cosmos.Endpoint: \"https://a.example/\" → \"https://u:p@ss@b.example:443/\"", "Target.Cosmos.Endpoint: \"https://a.example/\" → \"https://b.example:443/\"")]
    [InlineData("redis://user:secret@cache.example:6380 and http://x@127.0.0.1:8081/p", "redis://cache.example:6380 and http://127.0.0.1:8081/p")]
    [InlineData("someone@example.com wrote to https://host.example/a@b", "someone@example.com wrote to https://host.example/a@b")]
    public void WithoutUserInfoInText_DropsEveryAddresssCredentials_WhereverItStands(string text, string shown)
    {
        Assert.Equal(shown, EndpointPolicy.WithoutUserInfoInText(text));
    }

    [Theory]
    [InlineData("https://user:secret@host.example/", "https://host.example/")]
    [InlineData("https://user:p@ss@host.example:443/x?y=1", "https://host.example:443/x?y=1")]
    [InlineData("http://user@127.0.0.1:8081", "http://127.0.0.1:8081")]
    [InlineData(" HTTPS://user:secret@host.example/", " HTTPS://host.example/")]
    [InlineData("https:\\\\user:secret@host.example/", "https:\\\\host.example/")]
    [InlineData("https:/user:secret@host.example/", "https:/host.example/")]
    [InlineData("redis://user:secret@cache.example:6380", "redis://cache.example:6380")]
    [InlineData("https://host.example/path@x", "https://host.example/path@x")]
    [InlineData("mailto:someone@example.com", "mailto:someone@example.com")]
    [InlineData("/PartitionKey", "/PartitionKey")]
    public void WithoutUserInfo_DropsWhatWouldBeSentAsCredentials_AndKeepsTheRest(string address, string shown)
    {
        Assert.Equal(shown, EndpointPolicy.WithoutUserInfo(address));
    }

    private static async Task<long> OldProfileAsync(DashboardHost host, RunPlan plan)
    {
        await using var db = await host.OpenDatabaseAsync();
        var profile = new ProfileEntity { Name = plan.Name, PlanJson = plan.ToJson(), CreatedAt = SeededRuns.Start, UpdatedAt = SeededRuns.Start };
        db.Profiles.Add(profile);
        await db.SaveChangesAsync();
        return profile.Id;
    }

    /// <summary>A browser's session (a cookie) of a new user of this role, signed in with an invitation's link.</summary>
    private static async Task<HttpClient> SignedInPagesAsync(DashboardHost host, string role)
    {
        var token = await host.Get<UserDirectory>().InviteAsync($"pages {role}", role, TestActors.Admin, CancellationToken.None);
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
