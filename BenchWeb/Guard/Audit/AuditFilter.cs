namespace BenchWeb.Guard.Audit;

/// <summary>Which audit entries to list: by who (part of a user's name or id), action, and UTC days, newest first.</summary>
public sealed record AuditFilter
{
    public const int DefaultPageSize = 50;

    public const int MaxPageSize = 500;

    /// <summary>Part of the user's name or id, any case.</summary>
    public string? Who { get; init; }

    /// <summary>One of <see cref="AuditActions.All"/>, or a prefix ending in a dot (<c>run.</c>) for a family.</summary>
    public string? Action { get; init; }

    /// <summary>First day, UTC, inclusive.</summary>
    public DateOnly? From { get; init; }

    /// <summary>Last day, UTC, inclusive.</summary>
    public DateOnly? To { get; init; }

    public int Page { get; init; } = 1;

    public int PageSize { get; init; } = DefaultPageSize;
}
