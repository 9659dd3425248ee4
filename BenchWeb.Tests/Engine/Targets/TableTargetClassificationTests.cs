using BenchEngine.Targets;
using BenchEngine.Workloads;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Engine.Targets;

[UnitTest]
public class TableTargetClassificationTests
{
    [Theory]
    [InlineData(503)]
    [InlineData(500)]
    [InlineData(429)]
    public void IsThrottle_IsTrue_WhenTableStorageAnswersBusyOrTimedOut(int status) =>
        Assert.True(TableTarget.IsThrottle(TargetKind.TableStorage, status));

    [Theory]
    [InlineData(400)]
    [InlineData(403)]
    [InlineData(404)]
    [InlineData(409)]
    [InlineData(0)]
    public void IsThrottle_IsFalse_WhenTableStorageAnswersAnotherFailure(int status) =>
        Assert.False(TableTarget.IsThrottle(TargetKind.TableStorage, status));

    [Fact]
    public void IsThrottle_IsTrue_WhenTheCosmosTableApiAnswers429() =>
        Assert.True(TableTarget.IsThrottle(TargetKind.CosmosTable, 429));

    [Theory]
    [InlineData(503)]
    [InlineData(500)]
    [InlineData(409)]
    [InlineData(0)]
    public void IsThrottle_IsFalse_WhenTheCosmosTableApiAnswersAnythingBut429(int status) =>
        Assert.False(TableTarget.IsThrottle(TargetKind.CosmosTable, status));

    [Fact]
    public void CheckTransaction_AcceptsOneHundredEntities_WhenTheyShareAPartitionKey() =>
        Assert.Null(TableTarget.CheckTransaction(Documents(100, _ => "pk")));

    [Fact]
    public void CheckTransaction_SaysTheLimit_WhenThereAre101Entities() =>
        Assert.Equal("An entity-group transaction holds at most 100 entities; this one has 101.", TableTarget.CheckTransaction(Documents(101, _ => "pk")));

    [Fact]
    public void CheckTransaction_NamesThePositionsNotTheKeys_WhenPartitionKeysDiffer()
    {
        var reason = TableTarget.CheckTransaction(Documents(3, i => i == 2 ? "key-from-a-file" : "a"));

        Assert.Contains("entities 1 and 3 differ", reason, StringComparison.Ordinal);
        Assert.DoesNotContain("key-from-a-file", reason, StringComparison.Ordinal);
    }

    private static List<Document> Documents(int count, Func<int, string> partitionKey) =>
        Enumerable.Range(0, count).Select(i => new Document("r" + i, partitionKey(i), [])).ToList();
}
