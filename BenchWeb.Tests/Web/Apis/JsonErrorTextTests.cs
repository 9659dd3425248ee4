using System.Text.Json;
using BenchEngine.Running;
using BenchWeb.Apis;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Web.Apis;

/// <summary>A value of the wrong kind is described by the kind the field takes, never by a .NET type name.</summary>
[UnitTest]
public sealed class JsonErrorTextTests
{
    [Theory]
    [InlineData("{\"thresholds\": {\"maxDroppedPercent\": \"abc\"}}", "the value is not a number.")]
    [InlineData("{\"stop\": {\"autoStop\": {\"droppedFractionAbove\": true}}}", "the value is not a number.")]
    [InlineData("{\"load\": {\"concurrency\": 1.5}}", "the value is not a whole number.")]
    [InlineData("{\"target\": {\"cosmos\": {\"bulk\": \"yes\"}}}", "the value is not true or false.")]
    public void Describe_WrongKindOfValue_NamesTheKindInWords(string json, string reason)
    {
        var exception = Assert.Throws<JsonException>(() => JsonSerializer.Deserialize<RunPlan>(json, RunPlan.JsonOptions));

        var message = JsonErrorText.Describe(exception);

        Assert.EndsWith(reason, message, StringComparison.Ordinal);
        Assert.DoesNotContain("System.", message, StringComparison.Ordinal);
        Assert.StartsWith("Line 1, column ", message, StringComparison.Ordinal);
    }

    [Fact]
    public void Describe_UnknownProperty_NamesThePropertyNotATypeOfTheServer()
    {
        var exception = Assert.Throws<JsonException>(() => JsonSerializer.Deserialize<RunPlan>("{\"lod\": {}}", RunPlan.JsonOptions));

        var message = JsonErrorText.Describe(exception);

        Assert.EndsWith("there is no property 'lod' here.", message, StringComparison.Ordinal);
        Assert.DoesNotContain("BenchEngine", message, StringComparison.Ordinal);
        Assert.DoesNotContain(".NET", message, StringComparison.Ordinal);
    }
}
