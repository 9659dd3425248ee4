using BenchEngine.Targets;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Engine.Targets;

[UnitTest]
public sealed class OperationOutcomeTests
{
    [Theory]
    [InlineData("50", 50d)]
    [InlineData("0", 0d)]
    [InlineData("1.5", 1.5d)]
    [InlineData("86400000", 86_400_000d)]
    public void RetryAfterMilliseconds_ReadsAWaitAClientCanHonour(string header, double milliseconds) =>
        Assert.Equal(TimeSpan.FromMilliseconds(milliseconds), OperationOutcome.RetryAfterMilliseconds(header));

    [Theory]
    [InlineData("99999999999")]
    [InlineData("1e300")]
    [InlineData("-5")]
    [InlineData("NaN")]
    [InlineData("Infinity")]
    [InlineData("abc")]
    [InlineData("")]
    [InlineData(null)]
    public void RetryAfterMilliseconds_IsNone_ForAValueNoTimerCanWait(string? header) =>
        Assert.Null(OperationOutcome.RetryAfterMilliseconds(header));

    [Fact]
    public void Throttled_DropsARetryAfterBeyondADay_OrBelowZero()
    {
        Assert.Null(OperationOutcome.Throttled(429, 0, TimeSpan.FromDays(2)).RetryAfter);
        Assert.Null(OperationOutcome.Throttled(429, 0, TimeSpan.FromMilliseconds(-1)).RetryAfter);
        Assert.Equal(TimeSpan.FromSeconds(3), OperationOutcome.Throttled(503, 0, TimeSpan.FromSeconds(3)).RetryAfter);
    }

    [Theory]
    [InlineData(0, true)]
    [InlineData(408, true)]
    [InlineData(500, true)]
    [InlineData(503, true)]
    [InlineData(400, false)]
    [InlineData(404, false)]
    [InlineData(409, false)]
    [InlineData(413, false)]
    public void ErrorMayHaveLanded_OnlyWithoutAnAnswerOrAfterA408Or5xx(int status, bool mayHaveLanded) =>
        Assert.Equal(mayHaveLanded, OperationOutcome.ErrorMayHaveLanded(status));
}
