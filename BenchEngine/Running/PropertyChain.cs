using System.Collections;
using System.Linq.Expressions;
using System.Reflection;

namespace BenchEngine.Running;

/// <summary>
/// The properties from a record to one of its settings, read from a lambda (<c>p =&gt; p.Load.Throttling.MaxRetries</c>,
/// <c>p =&gt; p.Load.Stages[0].Ramp</c> for every stage's): reads the setting, and writes it into a copy, cloning each record
/// on the way as <c>with</c> does, so that the immutable plan is changed one setting at a time.
/// </summary>
internal sealed class PropertyChain
{
    // A property, or (Property null) the item of a list whose items are of ItemType.
    private sealed record Step(PropertyInfo? Property, Type? ItemType);

    private readonly Step[] _steps;

    private PropertyChain(Step[] steps, string path)
    {
        _steps = steps;
        Path = path;
    }

    /// <summary>The names on the way, a list's item as <c>[]</c>: <c>Load.Stages[].Ramp</c>.</summary>
    public string Path { get; }

    /// <summary>The chain a lambda's body walks: properties, and the items of lists by index.</summary>
    /// <exception cref="ArgumentException">The lambda does more than read properties.</exception>
    public static PropertyChain Of(LambdaExpression property)
    {
        ArgumentNullException.ThrowIfNull(property);
        var steps = new List<Step>();
        var segments = new List<string>();
        var node = property.Body;
        while (node is not ParameterExpression)
        {
            switch (node)
            {
                case UnaryExpression { NodeType: ExpressionType.Convert or ExpressionType.ConvertChecked } convert:
                    node = convert.Operand;
                    break;
                case MemberExpression { Member: PropertyInfo info } member:
                    steps.Add(new Step(info, null));
                    segments.Add(info.Name);
                    node = member.Expression!;
                    break;
                case MethodCallExpression { Method.Name: "get_Item", Object: { } list } item:
                    steps.Add(new Step(null, item.Method.ReturnType));
                    segments.Add("[]");
                    node = list;
                    break;
                default:
                    throw new ArgumentException($"Not a chain of properties: {property}.", nameof(property));
            }
        }

        steps.Reverse();
        segments.Reverse();
        return new PropertyChain([.. steps], string.Join('.', segments).Replace(".[]", "[]", StringComparison.Ordinal));
    }

    /// <summary>This chain followed by <paramref name="next"/> (the target's section, then one of its settings).</summary>
    public PropertyChain Then(PropertyChain next)
    {
        ArgumentNullException.ThrowIfNull(next);
        return new PropertyChain([.. _steps, .. next._steps], $"{Path}.{next.Path}");
    }

    /// <summary>The setting's value in <paramref name="root"/>; null when a section on the way is absent, or when the chain
    /// goes through a list and <paramref name="index"/> is not one of its items.</summary>
    public object? Get(object root, int? index = null)
    {
        object? value = root;
        foreach (var step in _steps)
        {
            value = value switch
            {
                null => null,
                _ when step.Property is { } property => property.GetValue(value),
                IList items when index is { } i && i >= 0 && i < items.Count => items[i],
                _ => null,
            };
        }

        return value;
    }

    /// <summary>A copy of <paramref name="root"/> with the setting set to <paramref name="value"/>: each record on the way
    /// is cloned, and an absent section starts as a new one with its defaults. A null for a setting that cannot be empty
    /// leaves out the optional section that holds it (no partition key strategy: no partition key section).</summary>
    /// <exception cref="ArgumentOutOfRangeException">The chain goes through a list that has no item <paramref name="index"/>.</exception>
    /// <exception cref="ArgumentException">A null for a text or a list that cannot be empty.</exception>
    public T With<T>(T root, object? value, int? index = null)
        where T : class => (T)With(root, 0, value, index)!;

    private object? With(object? node, int step, object? value, int? index)
    {
        if (step == _steps.Length)
        {
            return value;
        }

        if (_steps[step].Property is not { } property)
        {
            var items = (IList)node!;
            var at = index is { } i && i >= 0 && i < items.Count ? i : throw new ArgumentOutOfRangeException(nameof(index), index, $"{Path} has no item {index}.");
            var copy = Array.CreateInstance(_steps[step].ItemType!, items.Count);
            items.CopyTo(copy, 0);
            copy.SetValue(With(items[at], step + 1, value, index), at);
            return copy;
        }

        if (value is null && step == _steps.Length - 1)
        {
            if (property.PropertyType.IsValueType && Nullable.GetUnderlyingType(property.PropertyType) is null)
            {
                return null;
            }

            if (!property.PropertyType.IsValueType && new NullabilityInfoContext().Create(property).WriteState == NullabilityState.NotNull)
            {
                throw new ArgumentException($"{Path} cannot be empty.", nameof(value));
            }
        }

        var record = node is null ? Activator.CreateInstance(property.DeclaringType!)! : Clone(node);
        property.SetValue(record, With(node is null ? null : property.GetValue(node), step + 1, value, index));
        return record;
    }

    // A record's copy, as `with` makes it (the compiler's clone method); init-only properties are then set by reflection.
    private static object Clone(object record) =>
        record.GetType().GetMethod("<Clone>$", BindingFlags.Public | BindingFlags.Instance)?.Invoke(record, null)
        ?? throw new InvalidOperationException($"{record.GetType().Name} is not a record.");
}
