using BenchWeb.Configuration;
using BenchWeb.Uploads;
using Microsoft.AspNetCore.Http.Metadata;
using Microsoft.Extensions.Options;
using Microsoft.Net.Http.Headers;

namespace BenchWeb.Apis;

/// <summary>API request bodies before an endpoint reads them: larger than the limit → 413; of a content type the
/// endpoint does not take → 415. Kestrel enforces the limit on bodies without a length too (the exception handler
/// answers its error with the same 413). Runs after authentication, so that an upload refused here is audited with its
/// user (<see cref="RefusedUploadAudit"/>).</summary>
internal sealed class ApiRequestLimits(RequestDelegate next)
{
    public Task InvokeAsync(HttpContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        var request = context.Request;
        if (!request.Path.StartsWithSegments("/api") || !(HttpMethods.IsPost(request.Method) || HttpMethods.IsPut(request.Method) || HttpMethods.IsPatch(request.Method)))
        {
            return next(context);
        }

        var limit = context.RequestServices.GetRequiredService<IOptions<BenchWebOptions>>().Value.MaxRequestBodyBytes;
        var accepts = context.GetEndpoint()?.Metadata.GetMetadata<IAcceptsMetadata>();
        var upload = context.GetEndpoint()?.Metadata.GetMetadata<IRequestSizeLimitMetadata>()?.MaxRequestBodySize;
        limit = upload ?? limit;
        if (request.ContentLength > limit)
        {
            // An upload's limit is its file's and the form around it: the user is told the file's, as the Files page says it.
            return ProblemAsync(context, StatusCodes.Status413PayloadTooLarge, upload is null
                ? $"The request body is larger than {CsvUploadStore.Describe(limit)}."
                : context.RequestServices.GetRequiredService<CsvUploadStore>().TooLargeReason);
        }

        var hasBody = request.ContentLength > 0 || request.Headers.TransferEncoding.Count > 0;
        if (hasBody && accepts is { ContentTypes.Count: > 0 } && !Accepted(request.ContentType, accepts.ContentTypes))
        {
            return ProblemAsync(context, StatusCodes.Status415UnsupportedMediaType, $"Send the body as {string.Join(" or ", accepts.ContentTypes)}.");
        }

        return next(context);
    }

    private static bool Accepted(string? contentType, IReadOnlyList<string> accepted) =>
        MediaTypeHeaderValue.TryParse(contentType, out var given)
        && accepted.Any(a => MediaTypeHeaderValue.TryParse(a, out var type) && given.IsSubsetOf(type));

    private static async Task ProblemAsync(HttpContext context, int status, string title)
    {
        if (context.GetEndpoint()?.Metadata.GetMetadata<RefusedUploadAudit>() is { } audit)
        {
            await audit.RecordAsync(context, title);
        }

        await Results.Problem(statusCode: status, title: title).ExecuteAsync(context);
    }
}
