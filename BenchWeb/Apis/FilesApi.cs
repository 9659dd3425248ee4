using System.ComponentModel;
using BenchEngine.Running;
using BenchWeb.Configuration;
using BenchWeb.Guard.Security;
using BenchWeb.Uploads;
using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.WebUtilities;
using Microsoft.Extensions.Options;
using Microsoft.Net.Http.Headers;

namespace BenchWeb.Apis;

/// <summary><c>/api/files</c>: CSV workload files uploaded to the dashboard, which plans name by number
/// (<c>workload.csvFileId</c>). Uploading needs a Runner, deleting an Admin; the content is never served back.</summary>
public static class FilesApi
{
    public const string Path = "/api/files";

    /// <summary>Room in a multipart body for the part's headers and boundaries, besides the file itself.</summary>
    public const long MultipartOverheadBytes = 64 * 1024;

    private const string Multipart = "multipart/form-data";
    private const string Csv = "text/csv";

    public static RouteGroupBuilder MapFilesApi(this IEndpointRouteBuilder endpoints)
    {
        ArgumentNullException.ThrowIfNull(endpoints);
        var maxBytes = endpoints.ServiceProvider.GetRequiredService<IOptions<BenchWebOptions>>().Value.MaxUploadBytes;
        var group = endpoints.MapGroup(Path).WithTags("Files").RequireAuthorization(Policies.Viewer);

        group.MapGet("/", ListAsync)
            .WithName("ListFiles")
            .WithSummary("List the uploaded CSV files")
            .WithDescription("Newest first: name, size, SHA-256, columns, rows, who uploaded it and when, and what uses it.");

        group.MapGet("/{id:long}", GetAsync)
            .WithName("GetFile")
            .WithSummary("Describe one uploaded file")
            .WithDescription("Its metadata, not its content.");

        group.MapPost("/", UploadAsync)
            .RequireAuthorization(Policies.Runner)
            .Accepts<IFormFile>(Multipart, Csv)
            // The general body limit is for JSON; this endpoint takes files up to BenchWeb:MaxUploadBytes. Routing applies the
            // metadata to the request's IHttpMaxRequestBodySizeFeature, so Kestrel's own limit is raised for it too.
            .WithMetadata(new RequestSizeLimitAttribute(maxBytes + MultipartOverheadBytes), new RefusedUploadAudit(Policies.Runner))
            .WithName("UploadFile")
            .WithSummary("Upload a CSV workload file")
            .WithDescription($"A CSV file with a header row, as a multipart form field named 'file' or as a text/csv body (name it with ?name=). At most "
                + $"{CsvUploadStore.Describe(maxBytes)} (413 above); the header row at most 64 KB. The whole file is checked as a run will read it; a file "
                + "that is not CSV is refused with a validation problem under 'file'. Answers 201 with the file's number, which a plan names as workload.csvFileId.");

        group.MapDelete("/{id:long}", DeleteAsync)
            .RequireAuthorization(Policies.Admin)
            .WithName("DeleteFile")
            .WithSummary("Delete an uploaded file")
            .WithDescription("204 when deleted; 409 while a profile names it or a queued or running run needs it (the problem lists them in usedBy). "
                + "Finished runs keep the file's number in their snapshot.");

        return group;
    }

    internal static async Task<Ok<List<UploadedFileResponse>>> ListAsync(CsvUploadStore uploads, CancellationToken cancellationToken)
    {
        var uses = await uploads.UsesAsync(cancellationToken);
        var files = await uploads.ListAsync(cancellationToken);
        return TypedResults.Ok(files.Select(f => UploadedFileResponse.From(f, uses[f.Id])).ToList());
    }

    internal static async Task<Results<Ok<UploadedFileResponse>, ProblemHttpResult>> GetAsync(long id, CsvUploadStore uploads, CancellationToken cancellationToken) =>
        await uploads.FindAsync(id, cancellationToken) is { } file
            ? TypedResults.Ok(UploadedFileResponse.From(file, (await uploads.UsesAsync(cancellationToken))[id]))
            : NoSuchFile(id);

    internal static async Task<Results<Created<UploadedFileResponse>, ValidationProblem, ProblemHttpResult>> UploadAsync(
        HttpRequest request,
        [Description("For a text/csv body: the file's name as shown in lists (default upload.csv).")] string? name,
        CsvUploadStore uploads,
        CancellationToken cancellationToken)
    {
        var uploadedBy = request.HttpContext.Actor();
        CsvUploadResult result;
        if (MediaTypeHeaderValue.TryParse(request.ContentType, out var type) && type.MediaType.Equals(Multipart, StringComparison.OrdinalIgnoreCase))
        {
            // Refused before any file part was read: the store records its own refusals, these are recorded here.
            async Task<ValidationProblem> RefusedAsync(string message)
            {
                await uploads.RecordRefusalAsync(uploadedBy, null, request.ContentLength, message, CancellationToken.None);
                return Invalid(message);
            }

            var boundary = HeaderUtilities.RemoveQuotes(type.Boundary).Value;
            if (string.IsNullOrEmpty(boundary))
            {
                return await RefusedAsync("The multipart body has no boundary.");
            }

            try
            {
                if (await UploadFirstFileAsync(new MultipartReader(boundary, request.Body), uploads, uploadedBy, cancellationToken) is not { } uploaded)
                {
                    return await RefusedAsync($"Send the CSV file as the form field '{CsvUploadResult.Field}'.");
                }

                result = uploaded;
            }
            catch (InvalidDataException)
            {
                // The multipart reader's own complaint about the body's framing between parts (not about the CSV file).
                return await RefusedAsync(CsvUploadStore.MalformedMultipart);
            }
        }
        else
        {
            result = await uploads.SaveAsync(request.Body, name, uploadedBy, cancellationToken);
        }

        if (result.File is { } file)
        {
            // As stored (times keep the database's precision), so the answer equals what GET returns.
            return TypedResults.Created($"{Path}/{file.Id}", UploadedFileResponse.From(await uploads.FindAsync(file.Id, cancellationToken) ?? file, []));
        }

        return result.TooLarge
            ? TypedResults.Problem(statusCode: StatusCodes.Status413PayloadTooLarge, title: result.Error!.Value.Message)
            : ApiJson.Invalid([result.Error!.Value], "The file cannot be used as a CSV workload.");
    }

    internal static async Task<Results<NoContent, ProblemHttpResult>> DeleteAsync(long id, HttpContext http, CsvUploadStore uploads, CancellationToken cancellationToken)
    {
        var deletion = await uploads.DeleteAsync(id, http.Actor(), cancellationToken);
        if (!deletion.Found)
        {
            return NoSuchFile(id);
        }

        return deletion.Deleted
            ? TypedResults.NoContent()
            : TypedResults.Problem(
                statusCode: StatusCodes.Status409Conflict,
                title: "The file is in use.",
                detail: $"Uploaded file {id} is needed by {string.Join(", ", deletion.UsedBy)}: change or delete those profiles (or wait for those runs) first.",
                extensions: new Dictionary<string, object?> { ["usedBy"] = deletion.UsedBy });
    }

    /// <summary>Stores the first section that is the form field <c>file</c>; other fields are skipped unread.</summary>
    private static async Task<CsvUploadResult?> UploadFirstFileAsync(MultipartReader reader, CsvUploadStore uploads, Actor uploadedBy, CancellationToken cancellationToken)
    {
        while (await reader.ReadNextSectionAsync(cancellationToken) is { } section)
        {
            if (ContentDispositionHeaderValue.TryParse(section.ContentDisposition, out var disposition)
                && disposition.IsFileDisposition()
                && HeaderUtilities.RemoveQuotes(disposition.Name).Equals(CsvUploadResult.Field, StringComparison.Ordinal))
            {
                var fileName = HeaderUtilities.RemoveQuotes(disposition.FileNameStar.HasValue ? disposition.FileNameStar : disposition.FileName).Value;
                return await uploads.SaveAsync(section.Body, fileName, uploadedBy, cancellationToken);
            }
        }

        return null;
    }

    private static ValidationProblem Invalid(string message) =>
        ApiJson.Invalid([new FieldError(CsvUploadResult.Field, message)], "The file cannot be used as a CSV workload.");

    private static ProblemHttpResult NoSuchFile(long id) => ApiJson.NotFound($"No uploaded file {id}.");
}
