namespace BenchEngine.Running;

/// <summary>One invalid setting: its path in the plan (e.g. <c>Load.BatchSize</c>) and what is wrong with it.</summary>
public readonly record struct FieldError(string Field, string Message)
{
    public override string ToString() => $"{Field}: {Message}";
}
