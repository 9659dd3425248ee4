using BenchEngine.Diagnostics;
using BenchWeb.Guard.Security;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Web.Security;

/// <summary>The dashboard's own tokens are credentials a text must not hold: every kind it makes is found and redacted.</summary>
[UnitTest]
public sealed class SecretTokenTests
{
    [Theory]
    [InlineData(UserDirectory.ApiTokenPrefix)]
    [InlineData(UserDirectory.InvitationPrefix)]
    [InlineData(LocalAdminLink.TokenPrefix)]
    public void EveryTokenMade_IsFoundInAText_AndRedacted(string prefix)
    {
        for (var i = 0; i < 200; i++)
        {
            var token = SecretToken.Create(prefix);
            var text = $"nightly “{token}” done";

            Assert.NotNull(CredentialRedaction.FindCredential(text));
            Assert.Equal("nightly “[redacted]” done", CredentialRedaction.Redact(text, []));
        }
    }
}
