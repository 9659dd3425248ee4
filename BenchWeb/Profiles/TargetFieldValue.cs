using System.Globalization;
using System.Text.Json.Nodes;
using BenchEngine.Targets;

namespace BenchWeb.Profiles;

/// <summary>What the profile form holds for one target setting (<see cref="TargetField"/>): the input binds to the property
/// its kind of input needs, and the value goes to and from the plan's JSON form of the setting.</summary>
public sealed class TargetFieldValue(TargetField field)
{
    public TargetField Field { get; } = field;

    /// <summary>Text, a choice, a list (one item per line) or a secret's name.</summary>
    public string? Text { get; set; }

    public long? WholeNumber { get; set; }

    public double? Number { get; set; }

    public bool Flag { get; set; }

    /// <summary>Whether the setting is unset by default (an endpoint, a host): then an empty text leaves it unset, not "".</summary>
    public bool EmptyMeansUnset { get; init; }

    /// <summary>A secret typed into the form, not stored yet: write-only, never filled from storage.</summary>
    public string? NewSecret { get; set; }

    /// <summary>The property an input of this field binds to (where its validation state is kept).</summary>
    public string Property => Field.Input switch
    {
        TargetInput.WholeNumber => nameof(WholeNumber),
        TargetInput.Number => nameof(Number),
        TargetInput.Flag => nameof(Flag),
        _ => nameof(Text),
    };

    /// <summary>Fills the value from the setting's JSON (null: not set).</summary>
    public void Read(JsonNode? node)
    {
        switch (Field.Input)
        {
            case TargetInput.WholeNumber:
                WholeNumber = node is JsonValue whole && whole.TryGetValue<long>(out var w) ? w : null;
                break;
            case TargetInput.Number:
                Number = node is JsonValue number && number.TryGetValue<double>(out var n) ? n : null;
                break;
            case TargetInput.Flag:
                Flag = node is JsonValue flag && flag.TryGetValue<bool>(out var f) && f;
                break;
            case TargetInput.Lines:
                Text = node is JsonArray items && items.Count > 0 ? string.Join('\n', items.Select(i => i?.ToString())) : null;
                break;
            default:
                Text = node is JsonValue text && text.TryGetValue<string>(out var t) ? t : null;
                break;
        }
    }

    /// <summary>The setting's JSON for the plan (null: JSON null, an optional setting left empty); false when the value
    /// cannot be the setting, then <paramref name="problem"/> says why, its default goes to the plan and the form cannot be
    /// saved.</summary>
    public bool TryWrite(out JsonNode? value, out string? problem)
    {
        problem = null;
        value = Write(ref problem);
        return problem is null && !(value is null && Field.WhenEmpty is null);
    }

    private JsonNode? Write(ref string? problem)
    {
        switch (Field.Input)
        {
            case TargetInput.WholeNumber:
                if (WholeNumber is not { } whole)
                {
                    problem = Field.WhenEmpty is null ? "Give a whole number." : null;
                    return null;
                }

                if (whole < Field.Minimum || whole > Field.Maximum)
                {
                    problem = string.Create(CultureInfo.InvariantCulture, $"A whole number between {Field.Minimum:N0} and {Field.Maximum:N0}.");
                    return null;
                }

                return JsonValue.Create(whole);
            case TargetInput.Number:
                if (Number is not { } number)
                {
                    problem = Field.WhenEmpty is null ? "Give a number." : null;
                    return null;
                }

                if (!double.IsFinite(number))
                {
                    problem = "Give a number.";
                    return null;
                }

                return JsonValue.Create(number);
            case TargetInput.Flag:
                return JsonValue.Create(Flag);
            case TargetInput.Choice:
                if (string.IsNullOrWhiteSpace(Text))
                {
                    problem = Field.WhenEmpty is null ? $"Choose one of {string.Join(", ", Field.Choices)}." : null;
                    return null;
                }

                if (!Field.Choices.Contains(Text, StringComparer.Ordinal))
                {
                    problem = $"Not one of {string.Join(", ", Field.Choices)}.";
                    return null;
                }

                return JsonValue.Create(Text);
            case TargetInput.Lines:
                return new JsonArray([.. (Text ?? "").Split([',', '\n', '\r'], StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).Select(line => (JsonNode?)JsonValue.Create(line))]);
            case TargetInput.Secret:
                // A secret typed but not stored yet counts as named: it gets its name when saved.
                var name = (Text ?? "").Trim();
                return JsonValue.Create(name.Length == 0 && !string.IsNullOrWhiteSpace(NewSecret) ? "(stored with this profile)" : name);
            default:
                var text = (Text ?? "").Trim();
                return text.Length == 0 && EmptyMeansUnset ? null : JsonValue.Create(text);
        }
    }
}
