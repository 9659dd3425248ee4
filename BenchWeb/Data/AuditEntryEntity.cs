namespace BenchWeb.Data;

/// <summary>One recorded action: who (user, role, how they signed in or which API token), from where (remote
/// address), when, what, and against which endpoint. Appended by the services that act; the app never changes
/// or deletes an entry. Never holds a secret's value.</summary>
public sealed class AuditEntryEntity
{
    public long Id { get; set; }

    public DateTimeOffset At { get; set; }

    public required string UserId { get; set; }

    public required string UserName { get; set; }

    /// <summary>The role the user acted with.</summary>
    public required string Role { get; set; }

    /// <summary>How they signed in (<c>Local</c>, <c>OpenIdConnect</c>, <c>EasyAuth</c>) or the API token they used.</summary>
    public required string Via { get; set; }

    /// <summary>The request's remote address; for a page, the address its circuit connected from. Null when unknown.</summary>
    public string? RemoteIp { get; set; }

    /// <summary>One of <see cref="Guard.Audit.AuditActions"/>, e.g. <c>run.launched</c>.</summary>
    public required string Action { get; set; }

    /// <summary>What was acted on, e.g. <c>run #12</c>, <c>profile #3 “Nightly”</c>.</summary>
    public required string Subject { get; set; }

    /// <summary>More of what happened, e.g. a setting's old and new value.</summary>
    public string? Details { get; set; }

    /// <summary>The host of the service endpoint involved (a Cosmos DB account, a table endpoint), when known.</summary>
    public string? Endpoint { get; set; }
}
