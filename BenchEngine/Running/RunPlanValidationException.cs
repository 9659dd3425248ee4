namespace BenchEngine.Running;

/// <summary>A plan with invalid settings was asked to run.</summary>
public sealed class RunPlanValidationException : Exception
{
    public RunPlanValidationException()
        : this([])
    {
    }

    public RunPlanValidationException(string message)
        : base(message)
    {
        Errors = [];
    }

    public RunPlanValidationException(string message, Exception innerException)
        : base(message, innerException)
    {
        Errors = [];
    }

    public RunPlanValidationException(IReadOnlyList<FieldError> errors)
        : base("The run plan is invalid:" + Environment.NewLine + string.Join(Environment.NewLine, errors.Select(e => "- " + e)))
    {
        Errors = errors;
    }

    public IReadOnlyList<FieldError> Errors { get; }
}
