using System.Globalization;
using System.Runtime.InteropServices;
using System.Text;

namespace BenchEngine.Workloads;

/// <summary>
/// What a path names, found without opening it: opening a named pipe for reading waits until something writes to it
/// (a request that never returns), and a device such as <c>/dev/zero</c> never ends. Only a regular file is read, and a
/// file a user names is read only up to a size (<see cref="ReadTextAsync"/>).
/// </summary>
public static partial class RegularFile
{
    private const int AtCurrentDirectory = -100;
    private const uint StatxType = 0x1;
    private const int TypeMask = 0xF000;
    private const int RegularType = 0x8000;
    private const int NoSuchFile = 2;
    private const int PermissionDenied = 13;
    private const int NotADirectory = 20;

    /// <summary>What <paramref name="path"/> names, without opening it.</summary>
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

    /// <summary>The text of the regular file at <paramref name="path"/> (UTF-8, or what its byte-order mark says), refused
    /// before it is opened when it is not a regular file, and as soon as more than <paramref name="maxBytes"/> have been
    /// read: memory stays bounded whatever the path names. Messages start with "it" and never quote the file.</summary>
    /// <exception cref="FileNotFoundException">Nothing is at the path.</exception>
    /// <exception cref="InvalidDataException">A folder, a named pipe or a device; or more than <paramref name="maxBytes"/>.</exception>
    /// <exception cref="UnauthorizedAccessException">Permission denied.</exception>
    /// <exception cref="IOException">The file cannot be read.</exception>
    public static async Task<string> ReadTextAsync(string path, long maxBytes, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(path);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(maxBytes);
        switch (Inspect(path))
        {
            case FileKind.Missing:
                throw new FileNotFoundException("it does not exist.");
            case FileKind.NotRegular:
                throw new InvalidDataException("it is not a regular file (a folder, a named pipe or a device); only a regular file is read.");
            case FileKind.Unreadable:
                throw new UnauthorizedAccessException("it cannot be read: permission denied.");
        }

        var tooLarge = string.Create(CultureInfo.InvariantCulture, $"it is larger than {maxBytes / (1024.0 * 1024):0.#} MB, the most read from such a file.");
        await using var stream = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.Read, BufferChars, FileOptions.Asynchronous | FileOptions.SequentialScan);
        if (stream.Length > maxBytes)
        {
            throw new InvalidDataException(tooLarge);
        }

        // Counted as read too: a file that grows while it is read stops at the limit. UTF-8 has a character per byte at most.
        using var reader = new StreamReader(stream, Encoding.UTF8, detectEncodingFromByteOrderMarks: true, BufferChars);
        var text = new StringBuilder();
        var buffer = new char[BufferChars];
        int read;
        while ((read = await reader.ReadAsync(buffer, cancellationToken)) > 0)
        {
            if (text.Length + read > maxBytes)
            {
                throw new InvalidDataException(tooLarge);
            }

            text.Append(buffer, 0, read);
        }

        return text.ToString();
    }

    private const int BufferChars = 64 * 1024;

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
