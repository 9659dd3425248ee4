namespace BenchEngine.Targets;

/// <summary>
/// One setting of a target as the profile editor shows it and the run page labels it: its field path, label, help and
/// kind of input. The editor draws a target's section from its module's fields alone, so a new target needs no page.
/// </summary>
/// <param name="Path">The field path, <c>Target.Section.Property</c> (the property's JSON name with a capital).</param>
/// <param name="Label">The label beside the input, and the setting's name on the run page and in comparisons.</param>
/// <param name="Input">The kind of input.</param>
public sealed record TargetField(string Path, string Label, TargetInput Input)
{
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

    /// <summary>The smallest and largest whole number the setting can hold (its type's range; the module's rules say more).</summary>
    public long Minimum { get; init; } = int.MinValue;

    public long Maximum { get; init; } = int.MaxValue;

    /// <summary>A <see cref="TargetInput.Secret"/>'s store name suffix (<c>cosmos-key</c>) and what it holds ("the account key").</summary>
    public string? SecretPurpose { get; init; }

    public string? SecretHolds { get; init; }

    /// <summary>Whether the setting is read by a run with these options (and shown in the editor); null: always.</summary>
    public Func<TargetOptions, bool>? AppliesWhen { get; init; }

    /// <summary>A choice field of <typeparamref name="TEnum"/>'s values.</summary>
    public static TargetField Choice<TEnum>(string path, string label)
        where TEnum : struct, Enum => new(path, label, TargetInput.Choice) { Choices = Enum.GetNames<TEnum>() };
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
