using System.Globalization;
using System.Net;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Guard.Audit;
using BenchWeb.Guard.Security;
using BenchWeb.Tests.Support;
using CsvHelper;
using static BenchWeb.Tests.Integration.RunsApiTests;

namespace BenchWeb.Tests.Integration;

/// <summary>Names and endpoints the API once accepted without a word, through the real app on a loopback port: each is
/// refused with a 400 naming its field, and nothing is stored. The audit CSV stays text whatever an entry holds.</summary>
[IntegrationTest]
public sealed class PlainInputApiTests
{
    [Fact]
    public async Task CreateProfile_RefusesEveryHostileNameAndEndpoint_NamingTheField_AndStoresNothing()
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);
        var plan = ShortPlan("named in the plan", seconds: 5);
        var cosmos = new RunPlan
        {
            Name = "credentials",
            Target = new TargetOptions { Kind = TargetKind.CosmosSql, Cosmos = new CosmosOptions { Endpoint = "https://admin:hunter2@acme.documents.azure.com/" } },
            Stop = new StopOptions { TotalDocuments = 10 },
        };
        (object Body, string Field, string Expected)[] cases =
        [
            // The form refuses an empty name; the API did not: it saved the plan as "Untitled".
            (new { name = "", plan }, "Name", "Give the plan a name."),
            (new { name = "  ", plan }, "Name", "Give the plan a name."),
            (new { name = "invoice\u202Efdp.exe", plan }, "Name", "U+202E"),
            (new { name = "beep\u0007", plan }, "Name", "U+0007"),
            (new { plan = plan with { Name = "\u001b[2Jcleared" } }, "Name", "U+001B"),
            (new { name = "ok", description = "first line\nsecond \u001b[31mred", plan }, "Description", "U+001B"),
            (new { name = "ok", plan = cosmos }, "Target.Cosmos.Endpoint", "store the key as a secret"),
        ];

        foreach (var (body, field, expected) in cases)
        {
            using var response = await PostJsonAsync(http, "api/profiles", body);

            var problem = await AssertProblemAsync(response, HttpStatusCode.BadRequest);
            var message = problem["errors"]![field]![0]!.GetValue<string>();
            Assert.Contains(expected, message, StringComparison.Ordinal);
            Assert.DoesNotContain("hunter2", problem.ToJsonString(), StringComparison.Ordinal);
        }

        Assert.Empty((await GetJsonAsync(http, "api/profiles")).AsArray());
    }

    [Fact]
    public async Task KillSwitch_RefusesAReasonWithAControlCharacter_AndStopsNothing()
    {
        await using var host = await DashboardHost.StartAsync();
        using var admin = await host.CreateClientAsync(BenchWebRoles.Admin);

        using var response = await PostJsonAsync(admin, "api/admin/kill-switch", new { reason = "bill\u0000 running away" });

        var problem = await AssertProblemAsync(response, HttpStatusCode.BadRequest);
        Assert.Contains("U+0000", problem["errors"]!["Reason"]![0]!.GetValue<string>(), StringComparison.Ordinal);
        Assert.False((await GetJsonAsync(admin, "api/admin/kill-switch"))["paused"]!.GetValue<bool>());
    }

    [Fact]
    public async Task InvitationsAndTokens_RefuseANameWithABidirectionalOverride_SayingWhich()
    {
        await using var host = await DashboardHost.StartAsync();
        var users = host.Get<UserDirectory>();

        var invite = await Assert.ThrowsAsync<ArgumentException>(() => users.InviteAsync("admin\u202Enimda", BenchWebRoles.Viewer, TestActors.Admin, CancellationToken.None));
        var token = await Assert.ThrowsAsync<ArgumentException>(() =>
            users.CreateTokenAsync(TestActors.Admin.UserId, BenchWebRoles.Admin, "ci\u2066token", BenchWebRoles.Viewer, days: 1, TestActors.Admin, CancellationToken.None));

        Assert.Contains("U+202E", invite.Message, StringComparison.Ordinal);
        Assert.Contains("U+2066", token.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task InvitationsAndTokens_RefuseANameOfOnlyInvisibleCharacters()
    {
        await using var host = await DashboardHost.StartAsync();
        var users = host.Get<UserDirectory>();

        var invite = await Assert.ThrowsAsync<ArgumentException>(() => users.InviteAsync("\u200B\u200D", BenchWebRoles.Viewer, TestActors.Admin, CancellationToken.None));
        var token = await Assert.ThrowsAsync<ArgumentException>(() =>
            users.CreateTokenAsync(TestActors.Admin.UserId, BenchWebRoles.Admin, "\uFEFF", BenchWebRoles.Viewer, days: 1, TestActors.Admin, CancellationToken.None));

        Assert.Contains("not only invisible ones", invite.Message, StringComparison.Ordinal);
        Assert.Contains("not only invisible ones", token.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task AuditCsv_WritesControlAndBidirectionalCharactersAsCodePoints_WhateverAnEntryHolds()
    {
        // A name from a sign-in provider, or one stored before names were checked, may hold anything.
        await using var host = await DashboardHost.StartAsync();
        await using (var db = await host.OpenDatabaseAsync())
        {
            host.Get<AuditLog>().Append(db, new Actor("oidc:x", "Mallory\u0000\u0007\u001b[31m\u202Eevil", BenchWebRoles.Admin, "test", null), AuditActions.ProfileCreated, "profile #1 \u0085x", "details\r\nline");
            await db.SaveChangesAsync();
        }

        using var admin = await host.CreateClientAsync(BenchWebRoles.Admin);
        using var response = await admin.GetAsync(new Uri("api/audit/export.csv", UriKind.Relative));
        var text = await response.Content.ReadAsStringAsync();

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.DoesNotContain(text, c => PlainText.IsRefused(c) && c is not ('\r' or '\n'));
        using var csv = new CsvReader(new StringReader(text), CultureInfo.InvariantCulture);
        var rows = csv.GetRecords<dynamic>().Cast<IDictionary<string, object>>().ToList();
        var entry = Assert.Single(rows, r => (string)r["action"] == AuditActions.ProfileCreated);
        Assert.Equal("Mallory\\u0000\\u0007\\u001B[31m\\u202Eevil", entry["user_name"]);
        Assert.Equal("details\\u000D\\u000Aline", entry["details"]);
    }
}
