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

    /// <summary>The setting's value for what its input holds; false when it cannot be the setting (a whole number its
    /// property's type cannot hold, an empty number that needs one), then <paramref name="problem"/> says why. A value the
    /// property holds but the field's bounds refuse is read: the module's rule refuses it, in its own words.</summary>
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
                // Only what the property cannot hold is refused here; the module's range rule speaks for the field's bounds.
                var type = Nullable.GetUnderlyingType(field.ValueType) ?? field.ValueType;
                var (min, max) = type == typeof(int) ? (int.MinValue, int.MaxValue) : (long.MinValue, long.MaxValue);
                if (whole < min || whole > max)
                {
                    // Said with the field's own bounds where it declares them: a port is "between 1 and 65,535", whatever an int holds.
                    problem = string.Create(CultureInfo.InvariantCulture, $"A whole number between {field.Min ?? min:N0} and {field.Max ?? max:N0}.");
                    break;
                }

                value = Convert.ChangeType(whole, type, CultureInfo.InvariantCulture);
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
