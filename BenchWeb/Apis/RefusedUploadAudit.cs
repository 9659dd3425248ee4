using BenchWeb.Guard.Security;
using BenchWeb.Uploads;
using Microsoft.AspNetCore.Authorization;

namespace BenchWeb.Apis;

/// <summary>Metadata of an upload endpoint: a body the request limits refuse before the endpoint reads it (413 by its
/// announced length; 415 when it names no type) is a refused upload too, recorded as the endpoint's own refusals are, for
/// a caller the endpoint's policy lets upload (others are refused for who they are, as on every endpoint). A body of
/// another type never gets this far: routing answers it 415 with an endpoint of its own, before anyone is known.</summary>
/// <param name="policy">The endpoint's authorization policy.</param>
internal sealed class RefusedUploadAudit(string policy)
{
    public async Task RecordAsync(HttpContext context, string reason)
    {
        ArgumentNullException.ThrowIfNull(context);
        var authorization = context.RequestServices.GetRequiredService<IAuthorizationService>();
        if (!(await authorization.AuthorizeAsync(context.User, policy)).Succeeded)
        {
            return;
        }

        // A text/csv body is named by the query; a multipart body's name is in the part nobody read.
        var name = context.Request.Query["name"].ToString() is { Length: > 0 } given ? given : null;
        await context.RequestServices.GetRequiredService<CsvUploadStore>()
            .RecordRefusalAsync(context.Actor(), name, context.Request.ContentLength, reason, CancellationToken.None);
    }
}
