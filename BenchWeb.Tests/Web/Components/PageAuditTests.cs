using BenchEngine.Targets;
using BenchWeb.Components.Pages.Account;
using BenchWeb.Components.Pages.Admin;
using BenchWeb.Components.Pages.Profiles;
using BenchWeb.Data;
using BenchWeb.Guard.Audit;
using BenchWeb.Guard.Security;
using BenchWeb.Tests.Support.Components;
using Bunit;
using Microsoft.AspNetCore.Components.Web;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Web.Components;

/// <summary>What the pages do lands in the audit log with the signed-in user and the address their circuit connected
/// from (the services record it, so the pages and the API are recorded alike).</summary>
[UnitTest]
public sealed class PageAuditTests
{
    private const string AccountKey = "QXp1cmUgc3RvcmFnZSBrZXkgZm9yIGF1ZGl0IHRlc3Rz";
    private const string ConnectionString = $"DefaultEndpointsProtocol=https;AccountName=acme;AccountKey={AccountKey};EndpointSuffix=core.windows.net";

    [Fact]
    public async Task ProfilePages_RecordCreateChangeSecretCloneAndDelete_WithActorAddressAndEndpointButNeverTheSecret()
    {
        await using var context = new BenchWebComponentContext();
        context.StartAt("profiles/new");
        var editor = context.Render<ProfileEdit>();
        editor.WaitForElement("#save-profile");
        await editor.Find("[id='Name']").ChangeAsync("Acme tables");
        await editor.Find("[id='Target.Kind']").ChangeAsync(nameof(TargetKind.TableStorage));
        await editor.Find("#NewTablesConnectionString").ChangeAsync(ConnectionString);
        await editor.Find("#save-profile").ClickAsync(new MouseEventArgs());
        var id = await ProfileIdAsync(context, "Acme tables");

        var edit = context.Render<ProfileEdit>(parameters => parameters.Add(p => p.Id, id));
        edit.WaitForElement("[data-secret-stored='true']");
        await edit.Find("[id='Load.Concurrency']").ChangeAsync("20");
        await edit.Find("#save-profile").ClickAsync(new MouseEventArgs());
        edit.WaitForElement("#profile-message");
        await edit.Find("[data-secret-stored='true'] button").ClickAsync(new MouseEventArgs());
        edit.WaitForAssertion(() => Assert.Contains("The stored secret was removed.", edit.Markup, StringComparison.Ordinal));

        var list = context.Render<ProfileList>();
        list.WaitForElement("[data-profile='Acme tables']");
        await list.Find("[data-profile='Acme tables'] .actions button:not(.primary):not(.danger)").ClickAsync(new MouseEventArgs());
        var copy = await ProfileIdAsync(context, "Acme tables (copy)");
        var fresh = context.Render<ProfileList>();
        fresh.WaitForElement("[data-profile='Acme tables (copy)']");
        await fresh.Find("[data-profile='Acme tables (copy)'] button.danger").ClickAsync(new MouseEventArgs());
        await fresh.Find("[data-profile='Acme tables (copy)'] button.danger").ClickAsync(new MouseEventArgs());

        var entries = await EntriesAsync(context);
        Assert.All(entries, AssertTheAdminsCircuit);
        Assert.All(entries, e => Assert.DoesNotContain(AccountKey, $"{e.Subject} {e.Details} {e.Endpoint}", StringComparison.Ordinal));
        Assert.Equal(
            [AuditActions.SecretStored, AuditActions.ProfileCreated, AuditActions.ProfileChanged, AuditActions.SecretRemoved, AuditActions.ProfileChanged, AuditActions.ProfileCloned, AuditActions.ProfileDeleted],
            entries.Select(e => e.Action));
        var stored = entries[0];
        Assert.Equal($"secret “profile-{id}-tables-connection-string”", stored.Subject);
        Assert.Equal("acme.table.core.windows.net", stored.Endpoint);
        Assert.Equal($"profile #{id} “Acme tables”", entries[1].Subject);
        Assert.Equal("acme.table.core.windows.net", entries[1].Endpoint);
        Assert.Contains("Load.Concurrency: 10 → 20", entries[2].Details, StringComparison.Ordinal);
        Assert.Contains($"copy of profile #{id} “Acme tables”", entries[5].Details, StringComparison.Ordinal);
        Assert.Equal($"profile #{copy} “Acme tables (copy)”", entries[6].Subject);
    }

    [Fact]
    public async Task UserAndAccountPages_RecordInvitationsRolesDisablingAndTokens_WithActorAndAddress()
    {
        await using var context = new BenchWebComponentContext();
        var users = context.Services.GetRequiredService<UserDirectory>();
        await users.SignedInAsync(UserDirectory.LocalId("test Admin"), "test Admin", BenchWebRoles.Admin, SignInSources.Local, CancellationToken.None);
        await users.SignedInAsync("local:BOB", "Bob", BenchWebRoles.Viewer, SignInSources.Local, CancellationToken.None);

        var admin = context.Render<UserAdmin>();
        admin.WaitForElement("#invite");
        await admin.Find("#invite-name").ChangeAsync("Carol");
        await admin.Find("#invite-role").ChangeAsync(BenchWebRoles.Runner);
        await admin.Find("#invite").SubmitAsync();
        admin.WaitForElement("#invitation-link");
        await admin.Find("select[aria-label='Role of Bob']").ChangeAsync(BenchWebRoles.Runner);
        await admin.Find("[data-user-id='local:BOB'] button").ClickAsync(new MouseEventArgs());
        var account = context.Render<Account>();
        account.WaitForElement("#new-token");
        await account.Find("#token-name").ChangeAsync("nightly pipeline");
        await account.Find("#new-token").SubmitAsync();
        account.WaitForElement("#new-token-value");
        var token = account.Find("#new-token-value").TextContent.Trim();
        await account.Find("button.revoke").ClickAsync(new MouseEventArgs());

        var entries = await EntriesAsync(context);
        Assert.All(entries, AssertTheAdminsCircuit);
        Assert.All(entries, e => Assert.DoesNotContain(token, $"{e.Subject} {e.Details}", StringComparison.Ordinal));
        Assert.Equal([AuditActions.UserInvited, AuditActions.UserRoleChanged, AuditActions.UserDisabled, AuditActions.TokenCreated, AuditActions.TokenRevoked], entries.Select(e => e.Action));
        Assert.Equal("user local:CAROL “Carol”", entries[0].Subject);
        Assert.StartsWith("as Runner", entries[0].Details, StringComparison.Ordinal);
        Assert.Equal("user local:BOB “Bob”", entries[1].Subject);
        Assert.Equal("Viewer → Runner", entries[1].Details);
        Assert.Equal("user local:BOB “Bob”", entries[2].Subject);
        Assert.EndsWith("“nightly pipeline”", entries[3].Subject, StringComparison.Ordinal);
        Assert.Equal(entries[3].Subject, entries[4].Subject);
    }

    private static void AssertTheAdminsCircuit(AuditEntryEntity entry)
    {
        Assert.Equal(UserDirectory.LocalId("test Admin"), entry.UserId);
        Assert.Equal("test Admin", entry.UserName);
        Assert.Equal(BenchWebRoles.Admin, entry.Role);
        Assert.Equal(SignInSources.Local, entry.Via);
        Assert.Equal(BenchWebComponentContext.ClientAddress.ToString(), entry.RemoteIp);
    }

    private static async Task<List<AuditEntryEntity>> EntriesAsync(BenchWebComponentContext context)
    {
        await using var db = await context.Databases.CreateDbContextAsync();
        return await db.AuditEntries.OrderBy(e => e.Id).ToListAsync();
    }

    private static async Task<long> ProfileIdAsync(BenchWebComponentContext context, string name)
    {
        await using var db = await context.Databases.CreateDbContextAsync();
        return await db.Profiles.Where(p => p.Name == name).Select(p => p.Id).SingleAsync();
    }
}
