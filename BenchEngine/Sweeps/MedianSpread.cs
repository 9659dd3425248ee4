namespace BenchEngine.Sweeps;

/// <summary>How far a step's judged figure could move from one run of the step to the next: a distribution-free
/// confidence interval of the median of its per-second figures, from their order statistics.</summary>
/// <remarks>The median of n seconds lies between the j-th lowest and the j-th highest with probability
/// 1 − 2·P(B ≤ j − 1), B ~ Binomial(n, ½); the narrowest such interval with at least <see cref="Confidence"/> is taken
/// (all of the seconds when none is narrow enough: 3 or 4 seconds), and above <see cref="ExactUpTo"/> seconds the normal
/// approximation of the binomial gives j.</remarks>
/// <param name="Low">The interval's lower end.</param>
/// <param name="High">The interval's upper end.</param>
public readonly record struct MedianSpread(double Low, double High)
{
    /// <summary>The interval's confidence.</summary>
    public const double Confidence = 0.9;

    /// <summary>Up to this many seconds j comes from the binomial distribution itself.</summary>
    public const int ExactUpTo = 60;

    // The standard normal quantile of 1 − (1 − Confidence) / 2.
    private const double Z = 1.6448536269514722;

    /// <summary>Whether <paramref name="value"/> lies within the interval.</summary>
    public bool Contains(double value) => value >= Low && value <= High;

    /// <summary>The interval of the median of <paramref name="values"/>; null when there are fewer than
    /// <see cref="SweepStepResult.MinJudgedSeconds"/> of them (the figure is then not judged on the steady window).</summary>
    public static MedianSpread? Of(IReadOnlyCollection<double>? values)
    {
        if (values is null || values.Count < SweepStepResult.MinJudgedSeconds)
        {
            return null;
        }

        var sorted = values.Order().ToArray();
        var n = sorted.Length;
        var j = n <= ExactUpTo ? ExactRank(n) : Math.Max(1, (int)Math.Floor((n - (Z * Math.Sqrt(n))) / 2));
        return new MedianSpread(sorted[j - 1], sorted[n - j]);
    }

    private static int ExactRank(int n)
    {
        var j = 1;
        var term = Math.Pow(0.5, n); // P(B = 0)
        var atMost = 0.0; // P(B ≤ k)
        for (var k = 0; k < n / 2; k++)
        {
            atMost += term;
            if (1 - (2 * atMost) < Confidence)
            {
                break;
            }

            j = k + 1;
            term = term * (n - k) / (k + 1);
        }

        return j;
    }
}
