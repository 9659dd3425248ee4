using System.Text.Json;
using BenchEngine.Running;
using BenchWeb.Provenance;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Web.Provenance;

[UnitTest]
public sealed class RunMetadataTests
{
    [Fact]
    public void Validate_PairsWithinEveryBound_HasNoErrors()
    {
        var pairs = Enumerable.Range(1, RunMetadata.MaxPairs).Select(i => Pair($"key{i}", new string('v', RunMetadata.MaxValueLength))).ToList();
        pairs[0] = Pair(new string('k', RunMetadata.MaxKeyLength), "");

        Assert.Empty(new RunMetadata(pairs).Validate());
        Assert.Empty(Metadata(("commit", "1a2b3c4"), ("Commit", "case counts: another key"), ("note", "ünïcode, spaces inside and 😀 are fine")).Validate());
    }

    [Fact]
    public void Validate_MorePairsThanTheBound_IsRefusedOnTheWholeField()
    {
        var metadata = new RunMetadata(Enumerable.Range(1, RunMetadata.MaxPairs + 1).Select(i => Pair($"key{i}", "v")));

        var error = Assert.Single(metadata.Validate());

        Assert.Equal(new FieldError("Metadata", "At most 20 pairs; this has 21."), error);
    }

    [Theory]
    [InlineData("", "Metadata", "Pair 1 has an empty or invisible key")]
    [InlineData("   ", "Metadata", "Pair 1 has an empty or invisible key")]
    [InlineData("\u200B\uFEFF", "Metadata", "Pair 1 has an empty or invisible key")]
    [InlineData("k01234567890123456789012345678901234567890123456789", "Metadata", "The key of pair 1 has 51 characters; at most 50.")]
    [InlineData("bell\u0007", "Metadata", "The key of pair 1: Contains a control character (U+0007)")]
    [InlineData("evil\u202Eexe", "Metadata", "The key of pair 1: Contains a bidirectional-text control (U+202E)")]
    [InlineData("a=b", "Metadata.a=b", "A key cannot hold '='")]
    [InlineData(" commit", "Metadata. commit", "A key cannot begin or end with a space.")]
    public void Validate_BadKey_IsRefusedNamingTheFieldAndNeverQuotingAnUnprintableKey(string key, string field, string message)
    {
        var error = Assert.Single(Metadata((key, "value")).Validate());

        Assert.Equal(field, error.Field);
        Assert.StartsWith(message, error.Message, StringComparison.Ordinal);
        Assert.DoesNotContain('\u0007', error.Field + error.Message);
        Assert.DoesNotContain('\u202E', error.Field + error.Message);
    }

    [Theory]
    [InlineData(201, "At most 200 characters; this value has 201.")]
    [InlineData(-7, "Contains a control character (U+0007)")]
    [InlineData(-0x202E, "Contains a bidirectional-text control (U+202E)")]
    [InlineData(-0x2066, "Contains a bidirectional-text control (U+2066)")]
    [InlineData(-10, "Contains a control character (U+000A)")]
    [InlineData(-32, "A value cannot begin or end with a space.")]
    public void Validate_BadValue_IsRefusedOnItsKey(int lengthOrCharacter, string message)
    {
        // A positive number is a length of plain text; a negative one, a character that ends the value.
        var value = lengthOrCharacter > 0 ? new string('x', lengthOrCharacter) : "1a2b" + (char)-lengthOrCharacter;

        var error = Assert.Single(Metadata(("commit", value)).Validate());

        Assert.Equal("Metadata.commit", error.Field);
        Assert.StartsWith(message, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Validate_AKeyGivenTwice_IsRefusedOnThatKey_AndTheFieldNameIsTheOneGiven()
    {
        var error = Assert.Single(Metadata(("commit", "1"), ("branch", "main"), ("commit", "2")).Validate("--meta"));

        Assert.Equal(new FieldError("--meta.commit", "Given more than once: each key once."), error);
    }

    [Fact]
    public void Json_ReadsAnObjectOfText_KeepingAKeyGivenTwiceForValidateToName()
    {
        var metadata = JsonSerializer.Deserialize<RunMetadata>("""{ "commit": "1a2b", "branch": "main", "commit": "3c4d" }""", RunPlan.JsonOptions)!;

        Assert.Equal([Pair("commit", "1a2b"), Pair("branch", "main"), Pair("commit", "3c4d")], metadata.Pairs);
        Assert.Equal("Metadata.commit", Assert.Single(metadata.Validate()).Field);
    }

    [Theory]
    [InlineData("""{ "build": 812 }""")]
    [InlineData("""{ "build": null }""")]
    [InlineData("""{ "build": { "id": "812" } }""")]
    [InlineData("""["commit=1a2b"]""")]
    [InlineData("\"commit=1a2b\"")]
    public void Json_AnythingButAnObjectOfText_IsAJsonErrorSayingSo(string json)
    {
        var error = Assert.Throws<JsonException>(() => JsonSerializer.Deserialize<RunMetadata>(json, RunPlan.JsonOptions));

        Assert.Contains("metadata", JsonErrorText.Describe(error), StringComparison.OrdinalIgnoreCase);
    }

    [Fact]
    public void Json_NullReadsAsNoPairs_AndPairsAreWrittenInTheirOrder()
    {
        Assert.True(JsonSerializer.Deserialize<RunMetadata>("null", RunPlan.JsonOptions)!.IsEmpty);

        var json = JsonSerializer.Serialize(Metadata(("commit", "1a2b"), ("branch", "main")));

        Assert.Equal("""{"commit":"1a2b","branch":"main"}""", json);
    }

    [Fact]
    public void Stored_RoundTripsThePairsInOrder_AndHoldsEachPairAsStoredPairWritesIt()
    {
        var metadata = Metadata(("commit", "1a2b"), ("branch", "feature/\"quoted\" <b>"), ("empty", ""), ("note", "naïve + 'single'"));

        var stored = metadata.ToStored()!;

        Assert.Equal(metadata.Pairs, RunMetadata.FromStored(stored).Pairs);
        Assert.All(metadata.Pairs, p => Assert.Contains(RunMetadata.StoredPair(p.Key, p.Value), stored, StringComparison.Ordinal));
        Assert.Null(RunMetadata.Empty.ToStored());
        Assert.True(RunMetadata.FromStored(null).IsEmpty);
        Assert.True(RunMetadata.FromStored("{ not json").IsEmpty);
    }

    [Theory]
    [InlineData("branch", "main")]
    [InlineData("branch", "feat")]
    [InlineData("note", "main")]
    [InlineData("branch", "main\",\"x\":\"y")]
    public void StoredPair_IsFoundOnlyWhereTheKeyHoldsExactlyThatValue(string key, string value)
    {
        // The note's value spells out a whole pair; only its quotes, escaped, keep it from reading as one.
        var stored = Metadata(("branch", "feature"), ("note", "\"branch\":\"main\""), ("other", "main\",\"x\":\"y")).ToStored()!;

        Assert.DoesNotContain(RunMetadata.StoredPair(key, value), stored, StringComparison.Ordinal);
        Assert.Contains(RunMetadata.StoredPair("branch", "feature"), stored, StringComparison.Ordinal);
    }

    [Fact]
    public void With_GivenPairsWinInTheirPlace_AndNewOnesComeAfter()
    {
        var detected = Metadata(("ci", "github-actions"), ("commit", "1a2b"), ("branch", "main"));

        var merged = detected.With(Metadata(("branch", "release/1.2"), ("ticket", "BW-24")));

        Assert.Equal([Pair("ci", "github-actions"), Pair("commit", "1a2b"), Pair("branch", "release/1.2"), Pair("ticket", "BW-24")], merged.Pairs);
    }

    [Theory]
    [InlineData("commit=1a2b3c4", "commit", "1a2b3c4")]
    [InlineData(" branch = main ", "branch", "main")]
    [InlineData("query=a=b", "query", "a=b")]
    [InlineData("empty=", "empty", "")]
    public void TryParsePair_KeyEqualsValue_SplitsAtTheFirstEquals(string text, string key, string value)
    {
        Assert.Null(RunMetadata.TryParsePair(text, out var pair));
        Assert.Equal(Pair(key, value), pair);
    }

    [Theory]
    [InlineData(null, "Write key=value")]
    [InlineData("commit", "Write key=value")]
    [InlineData("=1a2b", "The key before '=' is empty")]
    [InlineData("  =1a2b", "The key before '=' is empty")]
    public void TryParsePair_NoKeyOrNoEquals_SaysHowToWriteIt(string? text, string problem)
    {
        Assert.StartsWith(problem, RunMetadata.TryParsePair(text, out _), StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("https://github.com/octo/app/actions/runs/42", true)]
    [InlineData("http://ci.example/build/7", true)]
    [InlineData("javascript:alert(1)", false)]
    [InlineData("data:text/html,<script>alert(1)</script>", false)]
    [InlineData("ftp://files.example/build", false)]
    [InlineData("//github.com/octo", false)]
    [InlineData("main", false)]
    public void LinkOf_OnlyAbsoluteHttpAndHttpsAddressesAreLinks(string value, bool isLink)
    {
        Assert.Equal(isLink, RunMetadata.LinkOf(value) is not null);
    }

    private static KeyValuePair<string, string> Pair(string key, string value) => KeyValuePair.Create(key, value);

    private static RunMetadata Metadata(params (string Key, string Value)[] pairs) => new(pairs.Select(p => Pair(p.Key, p.Value)));
}
