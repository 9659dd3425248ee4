using BenchEngine.Running;
using BenchWeb.Guard.Security;
using BenchWeb.Profiles;
using BenchWeb.Uploads;
using Microsoft.AspNetCore.Http.HttpResults;

namespace BenchWeb.Apis;

/// <summary><c>/api/profiles</c>: list, read and create test profiles. A plan is checked by the engine's rules
/// before it is saved; invalid settings come back as a validation problem keyed by the plan's field path.</summary>
public static class ProfilesApi
{
    public const string Path = "/api/profiles";

    public static RouteGroupBuilder MapProfilesApi(this IEndpointRouteBuilder endpoints)
    {
        // Reading needs a Viewer, creating a Runner.
        var group = endpoints.MapGroup(Path).WithTags("Profiles").RequireAuthorization(Policies.Viewer);

        group.MapGet("/", ListAsync)
            .WithName("ListProfiles")
            .WithSummary("List the saved profiles")
            .WithDescription("Every saved profile with its plan, by name. Plans name their secrets; secret values are never returned.");

        group.MapGet("/{id:long}", GetAsync)
            .WithName("GetProfile")
            .WithSummary("Read one profile")
            .WithDescription("The profile and its plan as a JSON object, in the same format as a profile file for the headless command.");

        group.MapPost("/", CreateAsync)
            .RequireAuthorization(Policies.Runner)
            .Accepts<CreateProfileRequest>("application/json")
            .WithName("CreateProfile")
            .WithSummary("Create a profile")
            .WithDescription("Saves a plan under a name (the plan's own name when the body gives none; \"Untitled\" when neither does). The plan is validated first; each invalid setting is reported under its path, e.g. \"Load.Concurrency\". "
                + "Plans hold only the names of secrets; store the values in the dashboard or the environment. A CSV workload names an uploaded file "
                + "(workload.csvFileId, see /api/files), never a server path.");

        return group;
    }

    internal static async Task<Ok<List<ProfileResponse>>> ListAsync(ProfileReader reader, CancellationToken cancellationToken) =>
        TypedResults.Ok((await reader.ListAsync(cancellationToken)).Select(ProfileResponse.From).ToList());

    internal static async Task<Results<Ok<ProfileResponse>, ProblemHttpResult>> GetAsync(long id, ProfileReader reader, CancellationToken cancellationToken) =>
        await reader.FindAsync(id, cancellationToken) is { } profile
            ? TypedResults.Ok(ProfileResponse.From(profile))
            : ApiJson.NotFound($"Profile {id} does not exist.");

    internal static async Task<Results<Created<ProfileResponse>, ValidationProblem>> CreateAsync(
        HttpRequest request, ProfileService profiles, CancellationToken cancellationToken)
    {
        var (body, problem) = await ApiJson.ReadAsync<CreateProfileRequest>(request, "the profile (its name and plan)", cancellationToken);
        if (problem is not null)
        {
            return problem;
        }

        if (body!.Plan is not { } plan)
        {
            return ApiJson.Invalid([new FieldError("Plan", "Give the plan to save.")]);
        }

        // A name given is the name: an empty one is refused by the plan's rules, as the form refuses it, never replaced.
        var name = body.Name is null ? plan.Name : body.Name.Trim();
        try
        {
            var profile = await profiles.CreateAsync(plan with { Name = name }, body.Description, request.HttpContext.Actor(), cancellationToken);
            return TypedResults.Created($"{Path}/{profile.Id}", ProfileResponse.From(profile));
        }
        catch (RunPlanValidationException ex)
        {
            return ApiJson.Invalid(ex.Errors);
        }
    }
}
