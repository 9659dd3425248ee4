using System.Text.Json;
using BenchEngine.Running;
using BenchWeb.Guard.Administration;
using Microsoft.AspNetCore.Http.HttpResults;

namespace BenchWeb.Apis;

/// <summary>Request bodies read by the endpoints themselves, so malformed JSON becomes a 400 problem that says
/// what is wrong and where (model binding would answer an empty 400, or a 500 where bad requests throw).</summary>
internal static class ApiJson
{
    /// <summary>Reads the request's JSON body as a <typeparamref name="T"/>; a body that is not one is a 400 problem saying
    /// where and what is wrong.</summary>
    /// <param name="request">The request whose body is read.</param>
    /// <param name="what">What the body holds, for the message when it is empty: "the plan", "the run export".</param>
    /// <param name="cancellationToken">Cancels the read.</param>
    public static async Task<(T? Value, ValidationProblem? Problem)> ReadAsync<T>(HttpRequest request, string what, CancellationToken cancellationToken)
        where T : class
    {
        ArgumentNullException.ThrowIfNull(request);
        try
        {
            var value = await JsonSerializer.DeserializeAsync<T>(request.Body, RunPlan.JsonOptions, cancellationToken);
            return value is null ? (null, Malformed("$", "The request body is empty or null; send a JSON object.")) : (value, null);
        }
        catch (JsonException ex) when (JsonErrorText.IsEmpty(ex))
        {
            return (null, Malformed("$", $"The body is empty: send {what} as JSON."));
        }
        catch (JsonException ex)
        {
            return (null, Malformed(ex.Path is { Length: > 0 } path ? path : "$", JsonErrorText.Describe(ex)));
        }
    }

    /// <summary>A 400 problem listing each invalid field with its messages.</summary>
    public static ValidationProblem Invalid(IEnumerable<FieldError> errors, string title = "One or more fields are invalid.") =>
        TypedResults.ValidationProblem(
            errors.GroupBy(e => e.Field, StringComparer.Ordinal).ToDictionary(g => g.Key, g => g.Select(e => e.Message).ToArray(), StringComparer.Ordinal),
            title: title);

    public static ProblemHttpResult NotFound(string detail) =>
        TypedResults.Problem(statusCode: StatusCodes.Status404NotFound, title: "Not found", detail: detail);

    /// <summary>A launch refused by the kill switch: 409 (the installation's state conflicts with a launch; unlike a 503,
    /// a client's automatic retries would not help until an administrator resumes), with who paused, since when and why.</summary>
    public static ProblemHttpResult Paused(KillSwitchState state)
    {
        ArgumentNullException.ThrowIfNull(state);
        return TypedResults.Problem(
            statusCode: StatusCodes.Status409Conflict,
            title: "Launching is paused by an administrator.",
            detail: state.Message,
            extensions: new Dictionary<string, object?>
            {
                ["pausedBy"] = state.ChangedBy,
                ["pausedAt"] = state.ChangedAt,
                ["reason"] = state.Reason,
            });
    }

    private static ValidationProblem Malformed(string path, string message) =>
        Invalid([new FieldError(path, message)], "The request body is not valid JSON for this endpoint.");
}
