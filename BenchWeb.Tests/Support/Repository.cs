namespace BenchWeb.Tests.Support;

/// <summary>The repository the tests were built from (the folder of <c>BenchWeb.sln</c>), for tests that read its files.</summary>
public static class Repository
{
    private static readonly Lazy<string> RootFolder = new(Find);

    public static string Root => RootFolder.Value;

    /// <summary>A path of the repository, given with '/' (e.g. <c>BenchWeb/build</c>).</summary>
    public static string PathOf(string relative) => Path.Combine([Root, .. relative.Split('/', StringSplitOptions.RemoveEmptyEntries)]);

    private static string Find()
    {
        var directory = new DirectoryInfo(AppContext.BaseDirectory);
        while (directory is not null && !File.Exists(Path.Combine(directory.FullName, "BenchWeb.sln")))
        {
            directory = directory.Parent;
        }

        return directory?.FullName ?? throw new InvalidOperationException("The repository (BenchWeb.sln) is not above the test assembly.");
    }
}
