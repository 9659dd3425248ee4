namespace BenchWeb.Uploads;

/// <summary>Something that needs an uploaded file: a profile that names it, or a run waiting for it or reading it.</summary>
/// <param name="Kind"><c>profile</c> or <c>run</c>.</param>
/// <param name="Id">The profile's or the run's number.</param>
/// <param name="Name">The profile's name, or the name of the run's plan.</param>
public sealed record UploadedFileUse(string Kind, long Id, string Name)
{
    public const string Profile = "profile";
    public const string Run = "run";

    public override string ToString() => $"{Kind} {Id} “{Name}”";
}
