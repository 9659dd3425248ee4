using System.Globalization;
using BenchEngine.Targets;

namespace BenchWeb.Profiles;

/// <summary>How the profile editor's input of a target setting (<see cref="TargetField"/>) shows the setting and turns what
/// was typed back into it: a whole number or a number in a box, a choice by name, a list one item per line, text trimmed.</summary>
internal static class TargetFieldInput
{
    private static readonly TargetOptions Defaults = new();

    /// <summary>The setting's value as its input shows it (<see cref="TargetField.Input"/>).</summary>
    public static object? Shown(TargetField field, object? value) => (field.Input, value) switch
    {
        (_, null) => null,
        (TargetInput.WholeNumber, _) => Convert.ToInt64(value, CultureInfo.InvariantCulture),
        (TargetInput.Number, _) => Convert.ToDouble(value, CultureInfo.InvariantCulture),
        (TargetInput.Lines, IEnumerable<string> items) => items.Any() ? string.Join('\n', items) : null,
        (TargetInput.Flag, _) => value,
        _ => value.ToString(),
    };

    /// <summary>The setting's value for what its input holds; false when it cannot be the setting, then
    /// <paramref name="problem"/> says why.</summary>
    public static bool TryRead(TargetField field, object? typed, out object? value, out string? problem)
    {
        problem = null;
        value = null;
        switch (field.Input, typed)
        {
            case (TargetInput.WholeNumber, null):
                problem = field.WhenEmpty is null ? "Give a whole number." : null;
                break;
            case (TargetInput.WholeNumber, long whole):
                if (whole < field.Minimum || whole > field.Maximum)
                {
                    problem = string.Create(CultureInfo.InvariantCulture, $"A whole number between {field.Minimum:N0} and {field.Maximum:N0}.");
                    break;
                }

                value = Convert.ChangeType(whole, Nullable.GetUnderlyingType(field.ValueType) ?? field.ValueType, CultureInfo.InvariantCulture);
                break;
            case (TargetInput.Number, double number):
                problem = double.IsFinite(number) ? null : "Give a number.";
                value = number;
                break;
            case (TargetInput.Number, _):
                problem = field.WhenEmpty is null ? "Give a number." : null;
                break;
            case (TargetInput.Flag, _):
                value = typed is true;
                break;
            case (TargetInput.Choice, _):
                var choice = typed as string;
                if (string.IsNullOrWhiteSpace(choice))
                {
                    problem = field.WhenEmpty is null ? $"Choose one of {string.Join(", ", field.Choices)}." : null;
                    break;
                }

                if (!field.Choices.Contains(choice, StringComparer.Ordinal))
                {
                    problem = $"Not one of {string.Join(", ", field.Choices)}.";
                    break;
                }

                value = Enum.Parse(Nullable.GetUnderlyingType(field.ValueType) ?? field.ValueType, choice);
                break;
            case (TargetInput.Lines, _):
                value = (typed as string ?? "").Split([',', '\n', '\r'], StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
                break;
            default:
                // An endpoint or a host is unset by default: left empty it stays unset, not "".
                var text = (typed as string ?? "").Trim();
                value = text.Length == 0 && field.Input != TargetInput.Secret && field.ValueIn(Defaults) is null ? null : text;
                break;
        }

        return problem is null;
    }
}
