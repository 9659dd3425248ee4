using System.Text.Json;
using System.Text.Json.Nodes;
using BenchEngine.Running;
using BenchEngine.Targets;

namespace BenchWeb.Profiles;

/// <summary>
/// A stored plan as it leaves the server (pages, the API, exports, the audit log): every address in it without a user name
/// or password. Saving refuses an endpoint that carries one (<see cref="EndpointPolicy.CheckAddress"/>), but a profile
/// stored before that rule, or an imported run's plan, may still hold <c>https://user:secret@host/</c>. The stored plan
/// keeps what it holds, so launching it is refused on its field, and nobody reads the secret in it.
/// </summary>
public static class ShownPlan
{
    /// <summary>The plan's JSON with every string that is an address shown without its user info; the text itself, as it
    /// is, when it holds none.</summary>
    public static string Json(string planJson)
    {
        ArgumentNullException.ThrowIfNull(planJson);
        JsonNode? root;
        try
        {
            root = JsonNode.Parse(planJson, documentOptions: new JsonDocumentOptions { AllowTrailingCommas = true, CommentHandling = JsonCommentHandling.Skip });
        }
        catch (JsonException)
        {
            // Not JSON (a row damaged by hand): shown as text, each line's addresses without their user info.
            return string.Join('\n', planJson.Split('\n').Select(line => string.Join('"', line.Split('"').Select(EndpointPolicy.WithoutUserInfo))));
        }

        return Scrub(root) ? root!.ToJsonString(RunPlan.JsonOptions) : planJson;
    }

    /// <summary>Replaces every string value that carries user info; whether any did.</summary>
    private static bool Scrub(JsonNode? node)
    {
        switch (node)
        {
            case JsonObject obj:
                var changed = false;
                foreach (var (name, child) in obj.ToList())
                {
                    if (Shown(child) is { } value)
                    {
                        obj[name] = value;
                        changed = true;
                    }
                    else
                    {
                        changed |= Scrub(child);
                    }
                }

                return changed;
            case JsonArray array:
                var any = false;
                for (var i = 0; i < array.Count; i++)
                {
                    if (Shown(array[i]) is { } value)
                    {
                        array[i] = value;
                        any = true;
                    }
                    else
                    {
                        any |= Scrub(array[i]);
                    }
                }

                return any;
            default:
                return false;
        }
    }

    /// <summary>The string value without its user info, or null when it is no string or carries none.</summary>
    private static string? Shown(JsonNode? node) =>
        node is JsonValue value && value.TryGetValue<string>(out var text) && EndpointPolicy.WithoutUserInfo(text) is var shown && shown != text ? shown : null;
}
