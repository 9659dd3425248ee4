namespace BenchEngine.Workloads;

/// <summary>What <see cref="RegularFile.Inspect"/> found.</summary>
public enum FileKind
{
    /// <summary>A regular file: the only kind that is read.</summary>
    Regular,

    /// <summary>Nothing is at the path.</summary>
    Missing,

    /// <summary>A folder, a named pipe, a device or a socket.</summary>
    NotRegular,

    /// <summary>Permission denied.</summary>
    Unreadable,
}
