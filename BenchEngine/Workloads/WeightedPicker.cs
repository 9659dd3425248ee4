namespace BenchEngine.Workloads;

/// <summary>Picks items in proportion to integer weights (a cumulative table and a binary search),
/// so skewed choices such as hub airports cost O(log n) and no allocation.</summary>
internal sealed class WeightedPicker<T>
{
    private readonly T[] _items;
    private readonly int[] _cumulativeWeights;

    public WeightedPicker(IEnumerable<T> items, Func<T, int> weight)
    {
        ArgumentNullException.ThrowIfNull(items);
        ArgumentNullException.ThrowIfNull(weight);
        _items = [.. items];
        if (_items.Length == 0)
        {
            throw new ArgumentException("At least one item is needed.", nameof(items));
        }

        _cumulativeWeights = new int[_items.Length];
        var total = 0;
        for (var i = 0; i < _items.Length; i++)
        {
            var w = weight(_items[i]);
            // A zero weight would repeat a cumulative value and make the binary search ambiguous.
            ArgumentOutOfRangeException.ThrowIfNegativeOrZero(w, nameof(weight));
            total = checked(total + w);
            _cumulativeWeights[i] = total;
        }
    }

    public T Pick(Random random)
    {
        var ticket = random.Next(_cumulativeWeights[^1]);
        var index = Array.BinarySearch(_cumulativeWeights, ticket);
        // An exact hit on item i's upper bound belongs to the next item; a miss gives the first bound above.
        return _items[index >= 0 ? index + 1 : ~index];
    }
}
