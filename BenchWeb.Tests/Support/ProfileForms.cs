using BenchWeb.Profiles;

namespace BenchWeb.Tests.Support;

/// <summary>Fills a profile form's target settings as a user types them, by field path.</summary>
internal static class ProfileForms
{
    /// <summary>Types <paramref name="value"/> into the setting's text box.</summary>
    public static ProfileForm WithText(this ProfileForm form, string path, string? value)
    {
        form.TargetFields[path].Text = value;
        return form;
    }

    /// <summary>Pastes a secret (a key, a connection string) to be stored with the profile.</summary>
    public static ProfileForm WithNewSecret(this ProfileForm form, string path, string? value)
    {
        form.TargetFields[path].NewSecret = value;
        return form;
    }

    public const string TablesConnectionString = "Target.Tables.ConnectionStringSecret";

    public const string CosmosKey = "Target.Cosmos.KeySecret";

    public const string CosmosEndpoint = "Target.Cosmos.Endpoint";
}
