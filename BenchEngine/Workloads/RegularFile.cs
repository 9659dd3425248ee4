using System.Runtime.InteropServices;

namespace BenchEngine.Workloads;

/// <summary>
/// What a path names, found without opening it: opening a named pipe for reading waits until something writes to it
/// (a request that never returns), and a device such as <c>/dev/zero</c> never ends. Only a regular file is read.
/// </summary>
internal static partial class RegularFile
{
    private const int AtCurrentDirectory = -100;
    private const uint StatxType = 0x1;
    private const int TypeMask = 0xF000;
    private const int RegularType = 0x8000;
    private const int NoSuchFile = 2;
    private const int PermissionDenied = 13;
    private const int NotADirectory = 20;

    public static FileKind Inspect(string path)
    {
        ArgumentNullException.ThrowIfNull(path);

        // .NET has no public API for a file's type (FileAttributes say Normal for a pipe or a device), so on Linux
        // the kernel is asked directly; statx's buffer has one layout on every architecture.
        if (OperatingSystem.IsLinux() && TryStatx(path) is { } kind)
        {
            return kind;
        }

        if (Directory.Exists(path))
        {
            return FileKind.NotRegular;
        }

        if (!File.Exists(path))
        {
            return FileKind.Missing;
        }

        // Elsewhere pipes and character devices report a length of 0, like an empty file, which has no header to read anyway.
        var info = new FileInfo(path);
        return (info.Attributes & FileAttributes.Device) != 0 || info.Length == 0 ? FileKind.NotRegular : FileKind.Regular;
    }

    private static FileKind? TryStatx(string path)
    {
        try
        {
            if (Statx(AtCurrentDirectory, path, 0, StatxType, out var status) == 0)
            {
                return (status.Mode & TypeMask) == RegularType ? FileKind.Regular : FileKind.NotRegular;
            }

            return Marshal.GetLastPInvokeError() switch
            {
                NoSuchFile or NotADirectory => FileKind.Missing,
                PermissionDenied => FileKind.Unreadable,
                _ => null,
            };
        }
        catch (Exception ex) when (ex is DllNotFoundException or EntryPointNotFoundException)
        {
            // A C library without statx (an old glibc or musl): fall back to what .NET can tell.
            return null;
        }
    }

    [LibraryImport("libc", EntryPoint = "statx", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    private static partial int Statx(int directory, string path, int flags, uint mask, out StatxBuffer status);

    /// <summary>The start of Linux's <c>struct statx</c> (256 bytes in all), up to the file's mode.</summary>
    [StructLayout(LayoutKind.Sequential, Size = 256)]
    private struct StatxBuffer
    {
        public uint Mask;
        public uint BlockSize;
        public ulong Attributes;
        public uint Links;
        public uint User;
        public uint Group;
        public ushort Mode;
    }
}

/// <summary>What <see cref="RegularFile.Inspect"/> found.</summary>
internal enum FileKind
{
    Regular,
    Missing,
    NotRegular,
    Unreadable,
}
