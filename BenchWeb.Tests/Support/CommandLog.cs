using System.Collections.Concurrent;
using System.Data.Common;
using System.Text.RegularExpressions;
using Microsoft.EntityFrameworkCore.Diagnostics;

namespace BenchWeb.Tests.Support;

/// <summary>Every query EF Core sends to the database, as its text, in order: what a read costs in commands, so a test can
/// hold a read side to its number of queries.</summary>
internal sealed partial class CommandLog : DbCommandInterceptor
{
    private readonly ConcurrentQueue<string> _texts = new();

    /// <summary>The queries sent since the last <see cref="Clear"/>, oldest first.</summary>
    public IReadOnlyList<string> Queries => [.. _texts];

    /// <summary>The tables each query reads, in the order its text names them (<c>Runs + RunSeconds</c>), oldest query
    /// first: a short account of what a read costs.</summary>
    public IReadOnlyList<string> TablesRead => [.. _texts.Select(text => string.Join(" + ", Tables(text)))];

    /// <summary>How many of the queries read this table.</summary>
    public int Reading(string table) => _texts.Count(text => Tables(text).Contains(table));

    public void Clear() => _texts.Clear();

    public override InterceptionResult<DbDataReader> ReaderExecuting(DbCommand command, CommandEventData eventData, InterceptionResult<DbDataReader> result)
    {
        ArgumentNullException.ThrowIfNull(command);
        _texts.Enqueue(command.CommandText);
        return result;
    }

    public override ValueTask<InterceptionResult<DbDataReader>> ReaderExecutingAsync(
        DbCommand command, CommandEventData eventData, InterceptionResult<DbDataReader> result, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(command);
        _texts.Enqueue(command.CommandText);
        return ValueTask.FromResult(result);
    }

    private static IEnumerable<string> Tables(string text) =>
        TableNames().Matches(text).Select(m => m.Groups[1].Value).Distinct(StringComparer.Ordinal);

    [GeneratedRegex("(?:FROM|JOIN) \"(\\w+)\"")]
    private static partial Regex TableNames();
}
