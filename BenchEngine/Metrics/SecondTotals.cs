namespace BenchEngine.Metrics;

/// <summary>
/// The counts and request units of one second, or of several added up with <c>+</c>: what the summary, its stages, the
/// live tiles and a run second made from its shards' all sum. <c>+</c> wraps on overflow as <see cref="long"/>'s does; in a
/// <c>checked</c> context, and in <see cref="Sum"/> (as <see cref="Enumerable.Sum(IEnumerable{long})"/>), it throws.
/// Request units add in the order the seconds come, as a running <see cref="double"/> sum does.
/// </summary>
/// <remarks>A second's length is not among them: the places that add seconds' lengths add them differently (ticks, or
/// seconds as doubles), and each keeps its own.</remarks>
public readonly record struct SecondTotals(
    long Ok,
    long OkRequests,
    long Throttled,
    long Errors,
    long Issued,
    long Dropped,
    long GivenUp,
    long GivenUpRequests,
    long SentLate,
    long NotStarted,
    long Abandoned,
    double RequestUnits)
{
    /// <summary>Nothing counted: adding it changes nothing.</summary>
    public static SecondTotals Zero => default;

    /// <summary>Requests answered: succeeded, throttled or failed.</summary>
    public long Responses => OkRequests + Throttled + Errors;

    /// <summary>Throttled responses ÷ all responses; 0 when there were none.</summary>
    public double ThrottledFraction => Share(Throttled, Responses);

    /// <summary>Failed responses ÷ all responses; 0 when there were none.</summary>
    public double ErrorFraction => Share(Errors, Responses);

    /// <summary>Open loop: requests due but not sent, dropped (the cap reached, a back-off) or not started by the stop (a
    /// sender that fell behind leaves its backlog there).</summary>
    public long Unsent => Dropped + NotStarted;

    /// <summary>Open loop: requests due but not sent (<see cref="Unsent"/>) ÷ requests due; 0 when none were due.</summary>
    public double DroppedFraction => Share(Unsent, Issued + Unsent);

    /// <summary>Request units per document landed; null when none landed.</summary>
    public double? RequestUnitsPerInsert => Ok > 0 ? RequestUnits / Ok : null;

    /// <summary>Documents per second over <paramref name="seconds"/>; 0 over no time.</summary>
    public double Throughput(double seconds) => seconds > 0 ? Ok / seconds : 0;

    /// <summary>The totals of one second.</summary>
    public static SecondTotals Of(SecondSnapshot second)
    {
        ArgumentNullException.ThrowIfNull(second);
        return new(
            Ok: second.Ok,
            OkRequests: second.OkRequests,
            Throttled: second.Throttled,
            Errors: second.Errors,
            Issued: second.Issued,
            Dropped: second.Dropped,
            GivenUp: second.GivenUp,
            GivenUpRequests: second.GivenUpRequests,
            SentLate: second.SentLate,
            NotStarted: second.NotStarted,
            Abandoned: second.Abandoned,
            RequestUnits: second.RequestUnits);
    }

    /// <summary>The seconds added up, in their order; throws when a count overflows.</summary>
    public static SecondTotals Sum(IEnumerable<SecondSnapshot> seconds)
    {
        ArgumentNullException.ThrowIfNull(seconds);
        var total = Zero;
        foreach (var second in seconds)
        {
            total = checked(total + Of(second));
        }

        return total;
    }

    public static SecondTotals operator +(SecondTotals left, SecondTotals right) => Add(left, right, check: false);

    public static SecondTotals operator checked +(SecondTotals left, SecondTotals right) => Add(left, right, check: true);

    private static SecondTotals Add(SecondTotals a, SecondTotals b, bool check)
    {
        long Plus(long x, long y) => check ? checked(x + y) : unchecked(x + y);
        return new(
            Ok: Plus(a.Ok, b.Ok),
            OkRequests: Plus(a.OkRequests, b.OkRequests),
            Throttled: Plus(a.Throttled, b.Throttled),
            Errors: Plus(a.Errors, b.Errors),
            Issued: Plus(a.Issued, b.Issued),
            Dropped: Plus(a.Dropped, b.Dropped),
            GivenUp: Plus(a.GivenUp, b.GivenUp),
            GivenUpRequests: Plus(a.GivenUpRequests, b.GivenUpRequests),
            SentLate: Plus(a.SentLate, b.SentLate),
            NotStarted: Plus(a.NotStarted, b.NotStarted),
            Abandoned: Plus(a.Abandoned, b.Abandoned),
            RequestUnits: a.RequestUnits + b.RequestUnits);
    }

    private static double Share(long part, long whole) => whole == 0 ? 0 : (double)part / whole;
}
