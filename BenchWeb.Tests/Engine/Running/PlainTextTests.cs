using BenchEngine.Diagnostics;
using BenchEngine.Running;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Engine.Running;

/// <summary>The one rule for text a user types that is shown or exported (<see cref="PlainText"/>), and the plan's name
/// held to it: no control characters, no bidirectional-text controls.</summary>
[UnitTest]
public sealed class PlainTextTests
{
    public static TheoryData<string, string> Refused() => new()
    {
        { "nul\0name", "U+0000" },
        { "bell\u0007", "U+0007" },
        { "\u001b[31mred", "U+001B" },
        { "line\nbreak", "U+000A" },
        { "del\u007f", "U+007F" },
        { "c1\u0085", "U+0085" },
        { "txt.\u202Eexe", "U+202E" },
        { "\u2066isolate\u2069", "U+2066" },
        { "mark\u200F", "U+200F" },
        { "ls\u2028sep", "U+2028" },
        { "zero\u200Bwidth", "U+200B" },
        { "bom\uFEFF", "U+FEFF" },
        { "tag\uDB40\uDC41x", "U+E0041" },
    };

    [Theory]
    [InlineData("notes\u2028second paragraph")]
    [InlineData("a note with a zero\u200Bwidth space")]
    public void Check_LetsTextOfSeveralLinesHaveSeparatorsAndInvisibleCharacters(string text) => Assert.Null(PlainText.Check(text, allowLineBreaks: true));

    [Theory]
    [MemberData(nameof(Refused))]
    public void Check_RefusesControlAndBidirectionalCharacters_NamingTheCodePoint(string text, string codePoint)
    {
        var message = PlainText.Check(text);

        Assert.NotNull(message);
        Assert.Contains(codePoint, message, StringComparison.Ordinal);
        Assert.DoesNotContain(message, c => PlainText.IsRefused(c));
    }

    [Theory]
    [InlineData("Gateway · 10 000 RU/s — run «α»")]
    [InlineData("Zürich 東京 مرحبا")]
    [InlineData("می\u200Cخواهم 👩\u200D💻")]
    [InlineData(null)]
    public void Check_AcceptsPrintableText_InAnyScript(string? text) => Assert.Null(PlainText.Check(text));

    [Fact]
    public void Check_AcceptsLineBreaksAndTabs_OnlyWhereAsked()
    {
        Assert.Null(PlainText.Check("first line\r\nsecond\tline", allowLineBreaks: true));
        Assert.NotNull(PlainText.Check("first line\r\nsecond", allowLineBreaks: false));
        Assert.NotNull(PlainText.Check("notes\u0007", allowLineBreaks: true));
    }

    [Fact]
    public void Escape_WritesEachRefusedCharacterAsItsCodePoint_AndKeepsLineBreaksWhereAsked()
    {
        Assert.Equal("\\u001B[31mred\\u0007 \\u202Eexe", PlainText.Escape("\u001b[31mred\u0007 \u202Eexe"));
        Assert.Equal("a\r\nb\n\tc\\u000Dd", PlainText.Escape("a\r\nb\n\tc\rd", keepLineBreaks: true));
        Assert.Equal("a\\u000A", PlainText.Escape("a\n"));
    }

    [Theory]
    [MemberData(nameof(Refused))]
    public void RunPlan_RefusesTheName_WithAControlOrBidirectionalCharacter(string name, string codePoint)
    {
        var plan = new RunPlan { Name = name, Stop = new StopOptions { TotalDocuments = 10 } };

        var error = Assert.Single(plan.Validate());

        Assert.Equal("Name", error.Field);
        Assert.Contains(codePoint, error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("\u200B")]
    [InlineData("\u200B\u200C\u200D")]
    [InlineData(" \uFEFF\u2060 ")]
    [InlineData("   ")]
    public void RunPlan_RefusesAName_OfOnlyInvisibleCharacters(string name)
    {
        var plan = new RunPlan { Name = name, Stop = new StopOptions { TotalDocuments = 10 } };

        var error = Assert.Single(plan.Validate());

        Assert.Equal("Name", error.Field);
        Assert.StartsWith("Give the plan a name", error.Message, StringComparison.Ordinal);
        Assert.True(PlainText.IsBlank(name));
    }

    [Theory]
    [InlineData("a\u200B")]
    [InlineData("東京")]
    public void IsBlank_IsFalse_ForANameWithSomethingToShow(string name) => Assert.False(PlainText.IsBlank(name));

    [Theory]
    [InlineData("DefaultEndpointsProtocol=https;AccountName=a;AccountKey=Zm9v;EndpointSuffix=core.windows.net", "(AccountKey=…)")]
    [InlineData("https://a.blob.core.windows.net/c?sv=2024&sig=abc%2Bdef", "(sig=…)")]
    [InlineData("note: password = hunter2", "(password=…)")]
    [InlineData("Authorization: Bearer eyJhbGciOi", "(Authorization: …)")]
    [InlineData("key C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw== here", "(an account key)")]
    [InlineData("tok Bearer eyJhbGciOiJIUzI1NiJ9abc", "(Bearer …)")]
    [InlineData("ci eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c", "(a JSON web token)")]
    [InlineData("build https://user:tok3n@dev.azure.com/x", "(a user name and password in an address, https://…@)")]
    [InlineData("tok bw_9P0qZmFrZS10b2tlbi1mb3ItdGVzdHMtb25seS0xMjM", "(a token, bw…)")]
    [InlineData("bwa_9P0qZmFrZS10b2tlbi1mb3ItdGVzdHMtb25seS0xMjM", "(a token, bwa…)")]
    [InlineData("gh ghp_0123456789abcdefghijABCDEFGHIJ012345", "(a token, ghp…)")]
    [InlineData("glpat-0123456789abcdefghij", "(a token, glpat…)")]
    public void Check_RefusesTextShapedLikeACredential_SayingWhatItLooksLike_NeverQuotingIt(string text, string what)
    {
        var message = PlainText.Check(text, allowLineBreaks: true);

        Assert.NotNull(message);
        Assert.Contains(what, message, StringComparison.Ordinal);
        Assert.DoesNotContain("Zm9v", message, StringComparison.Ordinal);
        Assert.DoesNotContain("hunter2", message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("AccountKey=[redacted];EndpointSuffix=core.windows.net")]
    [InlineData("the token expired; rotate the secret")]
    [InlineData("1a2b3c4d5e6f7a8b9c0d1a2b3c4d5e6f7a8b9c0d")]
    [InlineData("we use Bearer authentication on https://acct.documents.azure.com:443/ and bw_short")]
    [InlineData("mailto:ops@example.com, user@host, https://[redacted]@dev.azure.com/x")]
    public void Check_AcceptsRedactedCredentialsAndOrdinaryWords(string text) => Assert.Null(PlainText.Check(text));

    [Theory]
    [InlineData("file #5 “AccountKey=C2y6yDjf5R.csv”", "file #5 “AccountKey=[redacted]”")]
    [InlineData("Bearer eyJhbGciOiJIUzI1NiJ9abc then", "Bearer [redacted] then")]
    [InlineData("see https://user:tok3n@dev.azure.com/x", "see https://[redacted]@dev.azure.com/x")]
    [InlineData("“tok bw_9P0qZmFrZS10b2tlbi1mb3ItdGVzdHMtb25seS0xMjM”", "“tok [redacted]”")]
    public void Redact_TakesOutEachShape_KeepingWhatIsAroundIt(string text, string redacted) =>
        Assert.Equal(redacted, CredentialRedaction.Redact(text, []));
}
