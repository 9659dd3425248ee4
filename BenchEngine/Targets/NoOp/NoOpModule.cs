namespace BenchEngine.Targets;

public readonly partial record struct TargetKind
{
    /// <summary>Writes nowhere: measures what the client alone can do.</summary>
    public static TargetKind NoOp { get; } = new("NoOp");
}

/// <summary>The no-op target: accepts every write and keeps nothing, to measure the client alone.</summary>
internal sealed class NoOpModule : TargetModule
{
    public override TargetKind Kind => TargetKind.NoOp;

    public override string DisplayName => "No-op";

    public override string ChoiceNote => "client only";

    public override bool IsModel => true;

    public override (string Label, string Title) ModelLabel =>
        ("no service — the client alone", "The no-op target writes nowhere: the run measures what this client alone can send");

    public override int MaxBatchSize => Running.RunPlan.MaxTableBatch;

    public override bool BatchesSharePartitionKey => true;

    public override IInsertTarget Create(TargetOptions options, TargetContext context) => new NoOpTarget();

    public override string Describe(TargetOptions options) => $"{DisplayName} (measures the client alone)";
}
