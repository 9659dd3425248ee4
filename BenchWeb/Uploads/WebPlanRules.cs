using BenchEngine.Running;
using BenchEngine.Workloads;

namespace BenchWeb.Uploads;

/// <summary>The rules for a plan that comes from the web (the profile form, the API, an imported run, a preset): its
/// workload file is an uploaded one, named by number, never a path on the server. The engine's own rules run on the
/// plan as it would run, with the stored file's path put in, and what they say about that file is re-worded so that no
/// message names a path or quotes the file.</summary>
/// <remarks>A path given by the caller never reaches the engine: it is an error, whatever it names, with a message that is
/// the same whether or not anything exists there. The headless command, on the user's own machine, still reads paths.</remarks>
public static class WebPlanRules
{
    public const string CsvPathField = "Workload.CsvPath";
    public const string CsvFileIdField = "Workload.CsvFileId";
    private const string PartitionKeyField = "Workload.PartitionKey.Field";

    public const string ServerPathMessage = "A plan from the web names an uploaded file (csvFileId), never a server path.";

    public const string ChooseFileMessage = "Choose an uploaded CSV file for the CsvFile shape.";

    /// <summary>Every invalid setting of a plan from the web; empty when it can run.</summary>
    /// <param name="plan">The plan as sent or stored (with a file number, not a path).</param>
    /// <param name="storedPath">An uploaded file's stored path by number; null for a number that names no file.</param>
    public static IReadOnlyList<FieldError> Validate(RunPlan plan, Func<long, string?> storedPath) => Check(plan, storedPath).Errors;

    /// <summary>Checks a plan from the web once: the plan as given and as it runs when it can run, else every invalid
    /// setting (the same as <see cref="Validate"/>).</summary>
    /// <param name="plan">The plan as sent or stored (with a file number, not a path).</param>
    /// <param name="storedPath">An uploaded file's stored path by number; null for a number that names no file.</param>
    /// <param name="asRun">What the host makes of the resolved plan before it runs (the installation's caps, an agent's
    /// share); the engine's rules check the plan so made, and their errors are worded for <paramref name="plan"/>.</param>
    public static (CheckedWebPlan? Plan, IReadOnlyList<FieldError> Errors) Check(RunPlan plan, Func<long, string?> storedPath, Func<RunPlan, RunPlan>? asRun = null)
    {
        ArgumentNullException.ThrowIfNull(plan);
        ArgumentNullException.ThrowIfNull(storedPath);
        var workload = plan.Workload;
        var errors = new List<FieldError>();
        if (workload.CsvPath is not null)
        {
            errors.Add(new(CsvPathField, ServerPathMessage));
        }

        if (workload.CsvFileId is { } id && storedPath(id) is null)
        {
            errors.Add(new(CsvFileIdField, $"No uploaded file {id}."));
        }
        else if (workload.Shape == DocumentShape.CsvFile && workload.CsvFileId is null && workload.CsvPath is null)
        {
            errors.Add(new(CsvFileIdField, ChooseFileMessage));
        }

        // Once the file itself is the problem, the engine's "a path is required" would only repeat it.
        var fileReported = errors.Count > 0;
        var resolved = Resolve(plan, storedPath);
        var (runnable, engineErrors) = (asRun is null ? resolved : asRun(resolved)).Check();
        foreach (var error in Sanitize(plan, engineErrors))
        {
            if (!(fileReported && error.Field == CsvFileIdField))
            {
                errors.Add(error);
            }
        }

        return (errors.Count == 0 && runnable is not null ? new CheckedWebPlan(plan, runnable) : null, errors);
    }

    /// <summary>The plan the engine runs: the uploaded file's stored path in <see cref="WorkloadOptions.CsvPath"/>, and
    /// nothing else there (a path the caller named is dropped). Kept in memory only; the stored plan keeps the number.</summary>
    public static RunPlan Resolve(RunPlan plan, Func<long, string?> storedPath)
    {
        ArgumentNullException.ThrowIfNull(plan);
        ArgumentNullException.ThrowIfNull(storedPath);
        var path = plan.Workload.CsvFileId is { } id ? storedPath(id) : null;
        return plan with { Workload = plan.Workload with { CsvPath = path } };
    }

    /// <summary>The engine's errors for a resolved plan, re-worded where they would name the stored file or quote it
    /// (a CSV's columns are its content).</summary>
    public static IReadOnlyList<FieldError> Sanitize(RunPlan plan, IEnumerable<FieldError> engineErrors)
    {
        ArgumentNullException.ThrowIfNull(plan);
        ArgumentNullException.ThrowIfNull(engineErrors);
        var workload = plan.Workload;
        var result = new List<FieldError>();
        foreach (var error in engineErrors)
        {
            var sanitized = error.Field switch
            {
                CsvPathField => workload.CsvFileId is { } id
                    ? new FieldError(CsvFileIdField, $"Uploaded file {id} cannot be read as a CSV file with a header row.")
                    : new FieldError(CsvFileIdField, ChooseFileMessage),
                PartitionKeyField when workload.Shape == DocumentShape.CsvFile && workload.PartitionKey?.Field is { Length: > 0 } field =>
                    new FieldError(PartitionKeyField, $"The uploaded file has no column named '{field}'."),
                _ => error,
            };
            if (!result.Contains(sanitized))
            {
                result.Add(sanitized);
            }
        }

        return result;
    }
}
