using BenchEngine.Workloads;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Engine.Workloads;

[UnitTest]
public sealed class DocumentSizeTests
{
    [Theory]
    [InlineData(DocumentShape.SmallDto, 120, 180)]
    [InlineData(DocumentShape.PerformanceData, 170, 240)]
    [InlineData(DocumentShape.BulkRecord, 280, 360)]
    [InlineData(DocumentShape.Flight, 950, 1_200)]
    public void Measure_StaysInTheSeedRange_ForEachBuiltInShape(DocumentShape shape, int min, int max)
    {
        // The system clock, as in a real run: its timestamps carry seven fractional digits.
        var documents = new WorkloadOptions { Shape = shape }.Generate(2_000, TimeProvider.System);

        Assert.All(documents, d => Assert.InRange(DocumentJson.Measure(d), min, max));
    }

    [Fact]
    public void Measure_AveragesAboutTheBtsSize_ForFlights()
    {
        var documents = new WorkloadOptions { Shape = DocumentShape.Flight }.Generate(2_000);

        Assert.InRange(documents.Average(d => DocumentJson.Measure(d)), 1_000, 1_110);
    }

    [Fact]
    public void Measure_IsWithin16BytesOf1725_ForPaddedFlights()
    {
        var documents = new WorkloadOptions { Shape = DocumentShape.Flight, TargetSizeBytes = 1_725 }.Generate(5_000);

        Assert.All(documents, d => Assert.InRange(DocumentJson.Measure(d), 1_725 - 16, 1_725 + 16));
    }

    [Theory]
    [InlineData(DocumentShape.SmallDto, 1_000)]
    [InlineData(DocumentShape.PerformanceData, 4_096)]
    [InlineData(DocumentShape.BulkRecord, 512)]
    [InlineData(DocumentShape.Flight, 10_000)]
    public void Measure_IsNearTheTarget_WhenPadded(DocumentShape shape, int target)
    {
        var documents = new WorkloadOptions { Shape = shape, TargetSizeBytes = target }.Generate(2_000);

        // Only numbers that grow or shrink by a digit or two move a document off its target.
        Assert.All(documents, d => Assert.InRange(DocumentJson.Measure(d), target - 12, target + 12));
        Assert.All(documents, d => Assert.Equal("Padding", d.Fields[^1].Key));
    }

    [Fact]
    public void Padding_IsEmpty_WhenTheDocumentIsAlreadyLargerThanTheTarget()
    {
        var document = Assert.Single(new WorkloadOptions { Shape = DocumentShape.Flight, TargetSizeBytes = 100 }.Generate(1));

        Assert.Equal(string.Empty, document.Field("Padding"));
    }

    [Fact]
    public void Padding_IsAbsent_WhenNoTargetIsSet()
    {
        var documents = new WorkloadOptions { Shape = DocumentShape.SmallDto }.Generate(10);

        Assert.All(documents, d => Assert.False(d.HasField("Padding")));
    }
}
