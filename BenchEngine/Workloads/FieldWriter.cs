namespace BenchEngine.Workloads;

/// <summary>Appends fields in order, so a generator reads as the list of its columns.</summary>
internal ref struct FieldWriter(Span<KeyValuePair<string, object?>> fields)
{
    private readonly Span<KeyValuePair<string, object?>> _fields = fields;
    private int _count;

    public void Add(string name, object? value) => _fields[_count++] = new(name, value);
}
