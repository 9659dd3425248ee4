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
    [InlineData("{\"load\": {\"concurrency\": \"5\"}}", "the value is not a whole number from −2,147,483,648 to 2,147,483,647, written in digits (1000000000, not 1e9).")]
    [InlineData("{\"stop\": {\"durationSeconds\": \"60\"}}", "the value is not a number.")]
    [InlineData("{\"load\": {\"concurrency\": 1.5}}", "the value is not a whole number from −2,147,483,648 to 2,147,483,647, written in digits (1000000000, not 1e9).")]
    [InlineData("{\"load\": {\"concurrency\": 1e9}}", "the value is not a whole number from −2,147,483,648 to 2,147,483,647, written in digits (1000000000, not 1e9).")]
    [InlineData("{\"load\": {\"concurrency\": 2147483648}}", "the value is not a whole number from −2,147,483,648 to 2,147,483,647, written in digits (1000000000, not 1e9).")]
    [InlineData("[]", "the value is not a plan (a JSON object of its settings).")]
    [InlineData("{\"target\": {\"cosmos\": {\"bulk\": \"yes\"}}}", "the value is not true or false.")]
    public void Describe_WrongKindOfValue_NamesTheKindInWords(string json, string reason)
    {
        var exception = Assert.Throws<JsonException>(() => JsonSerializer.Deserialize<RunPlan>(json, RunPlan.JsonOptions));

        var message = JsonErrorText.Describe(exception);

        Assert.EndsWith(reason, message, StringComparison.Ordinal);
        Assert.DoesNotContain("System.", message, StringComparison.Ordinal);
        Assert.StartsWith("Line 1, column ", message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("{\"load\": {\"model\": \"Bogus\"}}", typeof(LoadModel))]
    [InlineData("{\"target\": {\"cosmos\": {\"connectionMode\": \"Bogus\"}}}", typeof(BenchEngine.Targets.CosmosConnectionMode))]
    [InlineData("{\"target\": {\"cosmos\": {\"consistencyLevel\": \"Bogus\"}}}", typeof(BenchEngine.Targets.CosmosConsistency))]
    public void Describe_AChoiceGivenANameItDoesNotHave_ListsTheNamesItTakes(string json, Type choice)
    {
        var exception = Assert.Throws<JsonException>(() => JsonSerializer.Deserialize<RunPlan>(json, RunPlan.JsonOptions));

        var message = JsonErrorText.Describe(exception);

        Assert.EndsWith($"the value is not one of {string.Join(", ", Enum.GetNames(choice))}.", message, StringComparison.Ordinal);
        Assert.DoesNotContain("expected kind", message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("")]
    [InlineData("  \n ")]
    public void Describe_AnEmptyDocument_SaysItIsEmpty_NotTheReadersInternals(string json)
    {
        var exception = Assert.Throws<JsonException>(() => JsonSerializer.Deserialize<RunPlan>(json, RunPlan.JsonOptions));

        Assert.True(JsonErrorText.IsEmpty(exception));
        var message = JsonErrorText.Describe(exception);
        Assert.EndsWith("the document is empty: there is no JSON value in it.", message, StringComparison.Ordinal);
        Assert.DoesNotContain("isFinalBlock", message, StringComparison.Ordinal);
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

    [Theory]
    [InlineData("{\"stop\": null}", "'stop' cannot be null: leave it out for its default, or give it a value.")]
    [InlineData("{\"stop\": {\"durationSeconds\": 5}, \"stop\": {\"durationSeconds\": 6}}", "'stop' is given twice: give each property once.")]
    [InlineData("{\"load\": {\"concurrency\": 4, \"concurrency\": 8}}", "'concurrency' is given twice: give each property once.")]
    public void Describe_NullForASectionOrAPropertyGivenTwice_SaysSoInWords_NeverAdviceForTheServersCode(string json, string reason)
    {
        var exception = Assert.Throws<JsonException>(() => JsonSerializer.Deserialize<RunPlan>(json, RunPlan.JsonOptions));

        var message = JsonErrorText.Describe(exception);

        Assert.EndsWith(reason, message, StringComparison.Ordinal);
        Assert.DoesNotContain("BenchEngine", message, StringComparison.Ordinal);
        Assert.DoesNotContain("nullability", message, StringComparison.Ordinal);
    }

    [Fact]
    public void FromJson_AsTheHeadlessCommandReadsAPlan_SaysTheKindOfValueInWords_NeverADotNetType()
    {
        var refused = Assert.Throws<RunPlanValidationException>(() => RunPlan.FromJson("{\"load\": {\"ratePerSecond\": \"fast\"}}"));

        var message = Assert.Single(refused.Errors).Message;
        Assert.EndsWith("the value is not a number.", message, StringComparison.Ordinal);
        Assert.DoesNotContain("System.", message, StringComparison.Ordinal);
        Assert.DoesNotContain("Nullable", message, StringComparison.Ordinal);
        Assert.DoesNotContain("RunPlan", Assert.Throws<RunPlanValidationException>(() => RunPlan.FromJson("42")).Errors[0].Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(double.NaN, null, "Load.RatePerSecond", "Must be a number (NaN is not one).")]
    [InlineData(null, 0d, "Stop.DurationSeconds", "Above 0 and at most 604,800 seconds (a week).")]
    public void Validate_NaNRateOrZeroDuration_SaysWhatIsWrong_NotARangeItIsIn(double? rate, double? duration, string field, string expected)
    {
        var plan = new RunPlan
        {
            Load = new LoadOptions { Model = rate is null ? LoadModel.ClosedLoop : LoadModel.OpenLoop, RatePerSecond = rate },
            Stop = new StopOptions { DurationSeconds = duration ?? 10 },
        };

        Assert.Equal([expected], plan.Validate().Where(e => e.Field == field).Select(e => e.Message));
    }
}
