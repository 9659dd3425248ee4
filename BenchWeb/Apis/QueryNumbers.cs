using System.Globalization;
using BenchEngine.Running;

namespace BenchWeb.Apis;

/// <summary>Reads the numbers of a query string (paging), with a field-named error for anything else.</summary>
internal static class QueryNumbers
{
    /// <summary>The whole number in <paramref name="text"/>, from <paramref name="min"/> to <paramref name="max"/>;
    /// <paramref name="fallback"/> when the parameter is absent, or (with an error added) when it is not such a number.</summary>
    public static int ParseInt(string? text, int fallback, string field, int min, int max, List<FieldError> errors)
    {
        if (string.IsNullOrWhiteSpace(text))
        {
            return fallback;
        }

        if (int.TryParse(text, NumberStyles.Integer, CultureInfo.InvariantCulture, out var value) && value >= min && value <= max)
        {
            return value;
        }

        errors.Add(new(field, $"'{text}' is not a whole number from {min} to {max}."));
        return fallback;
    }
}
