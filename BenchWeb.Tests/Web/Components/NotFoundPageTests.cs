using System.Net;
using BenchWeb.Guard.Security;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Web.Components;

/// <summary>An address of a run that cannot exist answers 404 with a page that says why, not the generic one.</summary>
[IntegrationTest]
public sealed class NotFoundPageTests
{
    [Theory]
    [InlineData("runs/-1", "“-1” is not a run number")]
    [InlineData("runs/abc", "“abc” is not a run number")]
    [InlineData("runs/99999999999999999999", "“99999999999999999999” is not a run number")]
    [InlineData("runs/%3Cb%3Ex", "“<b>x” is not a run number")]
    [InlineData("runs/" + "123456789012345678901234567890", "“123456789012345678901234…” is not a run number")]
    [InlineData("runs/987654", "Run #987654 does not exist")]
    public async Task RunAddress_WithoutARun_Answers404SayingWhy(string path, string heading)
    {
        await using var app = new BenchWebFactory();
        using var http = await app.CreateClientAsync(BenchWebRoles.Viewer);

        using var response = await http.GetAsync(path);

        Assert.Equal(HttpStatusCode.NotFound, response.StatusCode);
        var markup = await response.Content.ReadAsStringAsync();
        Assert.DoesNotContain("<b>", markup, StringComparison.Ordinal);
        var text = WebUtility.HtmlDecode(markup);
        Assert.Contains($">{heading}</h1>", text, StringComparison.Ordinal);
        Assert.DoesNotContain("Sorry, the content you are looking for does not exist.", text, StringComparison.Ordinal);
    }
}
