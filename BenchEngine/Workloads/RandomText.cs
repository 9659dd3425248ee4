namespace BenchEngine.Workloads;

/// <summary>Filler text drawn from a seeded <see cref="Random"/>, so repeated runs write the same bytes.</summary>
internal static class RandomText
{
    private const string Alphabet = "abcdefghijklmnopqrstuvwxyz";

    public static string Letters(Random random, int length) =>
        string.Create(length, random, static (span, r) => r.GetItems(Alphabet, span));
}
