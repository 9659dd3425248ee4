using BenchEngine.Targets;
using BenchWeb.Data;

namespace BenchWeb.Apis;

/// <summary>One audit entry as the API returns it.</summary>
public sealed record AuditEntryResponse(
    long Id,
    DateTimeOffset At,
    string UserId,
    string UserName,
    string Role,
    string Via,
    string? RemoteIp,
    string Action,
    string Subject,
    string? Details,
    string? Endpoint)
{
    public static AuditEntryResponse From(AuditEntryEntity entry)
    {
        ArgumentNullException.ThrowIfNull(entry);
        return new(entry.Id, entry.At, entry.UserId, entry.UserName, entry.Role, entry.Via, entry.RemoteIp, entry.Action, entry.Subject, EndpointPolicy.WithoutUserInfoInText(entry.Details), entry.Endpoint);
    }
}
