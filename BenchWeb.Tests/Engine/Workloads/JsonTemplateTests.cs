using System.Buffers;
using System.Text;
using System.Text.Json;
using BenchEngine.Workloads;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Engine.Workloads;

[UnitTest]
public sealed class JsonTemplateTests
{
    private const string Template = """
        {
          "id": "ignored",
          "name": "{{text:10}}",
          "score": "{{int:5:9}}",
          "below": "{{int:-5:-1}}",
          "number": "{{seq}}",
          "ref": "{{guid}}",
          "colour": "{{pick:red|green|blue}}",
          "at": "{{now}}",
          "label": "user-{{seq}} of {{pick:a}}",
          "count": 42,
          "big": 5000000000,
          "ratio": 1.5,
          "active": true,
          "nothing": null,
          "nested": { "tags": ["x", "{{seq}}"], "depth": 2 }
        }
        """;

    private static List<Document> Generate(string template, int count) =>
        new WorkloadOptions { Shape = DocumentShape.JsonTemplate, Template = template }.Generate(count);

    [Fact]
    public void Fields_FollowTheTemplate_WithoutItsId()
    {
        var document = Generate(Template, 1)[0];

        Assert.Equal(
            ["name", "score", "below", "number", "ref", "colour", "at", "label", "count", "big", "ratio", "active", "nothing", "nested"],
            document.Fields.Select(f => f.Key));
        Assert.NotEqual("ignored", document.Id);
    }

    [Fact]
    public void Placeholders_ProduceTypedValues()
    {
        var documents = Generate(Template, 300);

        Assert.All(documents, d =>
        {
            Assert.Matches("^[a-z]{10}$", d.Text("name"));
            Assert.InRange(Assert.IsType<int>(d.Field("score")), 5, 9);
            Assert.InRange(Assert.IsType<int>(d.Field("below")), -5, -1);
            Assert.True(Guid.TryParse(d.Text("ref"), out _));
            Assert.Contains(d.Text("colour"), new[] { "red", "green", "blue" });
            Assert.Equal(WorkloadTestExtensions.FixedNow, d.Field("at"));
        });
        Assert.Equal(Enumerable.Range(0, 300).Select(i => (long)i), documents.Select(d => (long)d.Field("number")!));
        Assert.Equal([5, 6, 7, 8, 9], documents.Select(d => (int)d.Field("score")!).Distinct().Order());
        Assert.Equal(3, documents.Select(d => d.Text("colour")).Distinct().Count());
    }

    [Fact]
    public void Placeholders_InsideText_AreFormattedIntoIt()
    {
        var documents = Generate(Template, 3);

        Assert.Equal(["user-0 of a", "user-1 of a", "user-2 of a"], documents.Select(d => d.Text("label")));
    }

    [Fact]
    public void Literals_KeepTheirJsonTypes()
    {
        var document = Generate(Template, 1)[0];

        Assert.Equal(42, document.Field("count"));
        Assert.Equal(5_000_000_000L, document.Field("big"));
        Assert.Equal(1.5, document.Field("ratio"));
        Assert.True(Assert.IsType<bool>(document.Field("active")));
        Assert.Null(document.Field("nothing"));
    }

    [Fact]
    public void NestedValues_AreWrittenVerbatim()
    {
        var document = Generate(Template, 1)[0];
        var buffer = new ArrayBufferWriter<byte>();

        DocumentJson.Write(buffer, document);

        var json = Encoding.UTF8.GetString(buffer.WrittenSpan);
        Assert.Contains("\"nested\":{\"tags\":[\"x\",\"{{seq}}\"],\"depth\":2}", json, StringComparison.Ordinal);
        using var parsed = JsonDocument.Parse(json);
        Assert.Equal(document.Id, parsed.RootElement.GetProperty("id").GetString());
    }

    [Fact]
    public void PartitionKeyProperty_HoldsTheChosenKey_WhenTheTemplateHasOne()
    {
        var documents = new WorkloadOptions
        {
            Shape = DocumentShape.JsonTemplate,
            Template = """{ "PartitionKey": "ignored", "n": "{{seq}}" }""",
            PartitionKey = new() { Strategy = PartitionKeyStrategy.FixedKeys, KeyCount = 3 },
        }.Generate(4);

        Assert.Equal(["pk-0", "pk-1", "pk-2", "pk-0"], documents.Select(d => d.Text("PartitionKey")));
        Assert.Equal(["pk-0", "pk-1", "pk-2", "pk-0"], documents.Select(d => d.PartitionKey));
    }

    [Fact]
    public void Placeholders_TolerateSpaces()
    {
        var documents = Generate("""{ "n": "{{ int: 1 : 3 }}", "s": "{{ seq }}" }""", 50);

        Assert.All(documents, d => Assert.InRange(Assert.IsType<int>(d.Field("n")), 1, 3));
        Assert.Equal(49L, documents[^1].Field("s"));
    }

    [Fact]
    public void TextPlaceholder_ScalesTheDocument()
    {
        var document = Generate("""{ "body": "{{text:5000}}" }""", 1)[0];

        Assert.InRange(DocumentJson.Measure(document), 5_000, 5_100);
    }

    [Theory]
    [InlineData(null, "required")]
    [InlineData("   ", "required")]
    [InlineData("{ \"a\": ", "Not valid JSON")]
    [InlineData("""{ "x": {{int:1:5}} }""", "a placeholder goes inside quotes")]
    [InlineData("""{ "x": [1, {{seq}}] }""", "a placeholder goes inside quotes")]
    [InlineData("[1, 2]", "Must be a JSON object, not an array")]
    [InlineData("\"text\"", "Must be a JSON object, not a string")]
    [InlineData("""{ "a": "{{uuid}}" }""", "Property 'a': '{{uuid}}' is not a known placeholder")]
    [InlineData("""{ "a": "{{int:9:5}}" }""", "Property 'a': '{{int:9:5}}' expects {{int:MIN:MAX}}")]
    [InlineData("""{ "a": "{{int:x:5}}" }""", "expects {{int:MIN:MAX}}")]
    [InlineData("""{ "a": "{{text:0}}" }""", "expects {{text:LENGTH}}")]
    [InlineData("""{ "a": "{{text:3000000}}" }""", "expects {{text:LENGTH}}")]
    [InlineData("""{ "a": "{{pick:}}" }""", "expects {{pick:a|b|c}}")]
    [InlineData("""{ "a": "{{seq:1}}" }""", "is not a known placeholder")]
    [InlineData("""{ "a": 1, "a": 2 }""", "Property 'a' appears more than once")]
    public void Validate_ReportsTheTemplate_WhenItIsMissingOrInvalid(string? template, string expected)
    {
        var errors = DocumentSourceFactory.Validate(new WorkloadOptions { Shape = DocumentShape.JsonTemplate, Template = template });

        var error = Assert.Single(errors);
        Assert.Equal("Workload.Template", error.Key);
        Assert.Contains(expected, error.Value, StringComparison.Ordinal);
    }

    [Fact]
    public void Validate_AcceptsAValidTemplate()
    {
        Assert.Empty(DocumentSourceFactory.Validate(new WorkloadOptions { Shape = DocumentShape.JsonTemplate, Template = Template }));
    }
}
