namespace BenchEngine.Running;

/// <summary>Who reads validation messages, which decides how much they may say about files on this machine.</summary>
public enum ValidationAudience
{
    /// <summary>Someone on another machine (the dashboard, the HTTP API): a file problem is only "cannot be used",
    /// so messages reveal neither what a file holds nor whether a path exists.</summary>
    Remote,

    /// <summary>The person who started this process on this machine (the headless command): messages say what is
    /// wrong with a file (missing, not a regular file, no header), still never what it holds.</summary>
    Local,
}
