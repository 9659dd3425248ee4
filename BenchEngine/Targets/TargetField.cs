using System.Linq.Expressions;
using BenchEngine.Running;

namespace BenchEngine.Targets;

/// <summary>
/// One setting of a target as the profile editor shows it and the run page labels it: its field path, label, help, kind
/// of input and bounds, and the property of <see cref="TargetOptions"/> it is. The module's rules name the field itself,
/// and its range rule reads the bounds declared here. The editor draws a target's section from its
/// module's fields alone, so a new target needs no page. A field is declared from its property:
/// <c>TargetField.Of(t =&gt; t.Cosmos.Endpoint, "Account endpoint", TargetInput.Text)</c>.
/// </summary>
public sealed record TargetField
{
    private TargetField(PropertyChain chain, Type valueType, string label, TargetInput input)
    {
        Chain = chain;
        Path = $"Target.{chain.Path}";
        ValueType = valueType;
        Label = label;
        Input = input;
    }

    /// <summary>The field path, <c>Target.Section.Property</c>.</summary>
    public string Path { get; }

    /// <summary>The label beside the input, and the setting's name on the run page and in comparisons.</summary>
    public string Label { get; }

    /// <summary>The kind of input.</summary>
    public TargetInput Input { get; }

    /// <summary>The setting's type, as <see cref="TargetOptions"/> holds it.</summary>
    public Type ValueType { get; }

    internal PropertyChain Chain { get; }

    /// <summary>The field that edits the property <paramref name="property"/> reads: <c>t =&gt; t.Redis.Port</c>.</summary>
    public static TargetField Of<T>(Expression<Func<TargetOptions, T>> property, string label, TargetInput input)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(label);
        return new TargetField(PropertyChain.Of(property), typeof(T), label, input);
    }

    /// <summary>The field path of the property <paramref name="property"/> reads (<c>t =&gt; t.Simulator.Shards</c> is
    /// <c>Target.Simulator.Shards</c>), for a rule about a setting that no editor field edits.</summary>
    public static string PathOf<T>(Expression<Func<TargetOptions, T>> property) => $"Target.{PropertyChain.Of(property).Path}";

    /// <summary>The setting's value in <paramref name="options"/>.</summary>
    public object? ValueIn(TargetOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        return Chain.Get(options);
    }

    /// <summary>A copy of <paramref name="options"/> with the setting set to <paramref name="value"/> (of <see cref="ValueType"/>).</summary>
    public TargetOptions With(TargetOptions options, object? value)
    {
        ArgumentNullException.ThrowIfNull(options);
        return Chain.With(options, value);
    }

    /// <summary>The setting's name on the run page and in comparisons, when it differs from the label. Two kinds' fields with one
    /// name (the RU/s of Cosmos DB and of the simulator) share one row when runs of both are compared.</summary>
    public string Setting
    {
        get => field ?? Label;
        init;
    }

    /// <summary>A line under the input.</summary>
    public string? Help { get; init; }

    /// <summary>A setting of the client (connection, SDK options): shown under "Client settings" rather than the target.</summary>
    public bool ClientSetting { get; init; }

    /// <summary>A <see cref="TargetInput.Choice"/>'s values (an enum's names).</summary>
    public IReadOnlyList<string> Choices { get; init; } = [];

    /// <summary>For an optional choice or number: what an empty value means ("Account default"); null when it needs a value.</summary>
    public string? WhenEmpty { get; init; }

    /// <summary>The smallest value the module's rules accept, when one bound holds whatever the other settings say; null
    /// for none. The module's range rule reads it (<see cref="TargetChecks.CheckBounds(TargetField, double?, string)"/>).</summary>
    public double? Min { get; init; }

    /// <summary>The largest value the module's rules accept, when one bound holds whatever the other settings say; null for
    /// none.</summary>
    public double? Max { get; init; }

    /// <summary>Whether <see cref="Min"/> itself is refused: the value must be above it ("above 0 ms").</summary>
    public bool MinExclusive { get; init; }

    /// <summary>Whether <paramref name="value"/> is within the field's bounds; NaN never is.</summary>
    public bool Admits(double value) => Bounds.Admit(Min, Max, MinExclusive, value);

    /// <summary>A <see cref="TargetInput.Secret"/>'s store name suffix (<c>cosmos-key</c>) and what it holds ("the account key").</summary>
    public string? SecretPurpose { get; init; }

    public string? SecretHolds { get; init; }

    /// <summary>Whether the setting is read by a run with these options (and shown in the editor); null: always.</summary>
    public Func<TargetOptions, bool>? AppliesWhen { get; init; }

    /// <summary>A choice field of <typeparamref name="TEnum"/>'s values.</summary>
    public static TargetField Choice<TEnum>(Expression<Func<TargetOptions, TEnum>> property, string label)
        where TEnum : struct, Enum => Of(property, label, TargetInput.Choice) with { Choices = Enum.GetNames<TEnum>() };

    /// <summary>An optional choice field of <typeparamref name="TEnum"/>'s values (say what empty means with <see cref="WhenEmpty"/>).</summary>
    public static TargetField Choice<TEnum>(Expression<Func<TargetOptions, TEnum?>> property, string label)
        where TEnum : struct, Enum => Of(property, label, TargetInput.Choice) with { Choices = Enum.GetNames<TEnum>() };
}

/// <summary>How a setting is typed in.</summary>
public enum TargetInput
{
    /// <summary>One line of text.</summary>
    Text,

    /// <summary>A whole number.</summary>
    WholeNumber,

    /// <summary>A number with decimals.</summary>
    Number,

    /// <summary>On or off.</summary>
    Flag,

    /// <summary>One of <see cref="TargetField.Choices"/>.</summary>
    Choice,

    /// <summary>A list, one item per line.</summary>
    Lines,

    /// <summary>The name of a secret (an environment variable, or one stored with the profile by an administrator).</summary>
    Secret,
}
