using System.Buffers;
using System.Globalization;
using System.Security.Cryptography;
using BenchEngine.Diagnostics;
using BenchEngine.Running;
using BenchEngine.Workloads;
using BenchWeb.Configuration;
using BenchWeb.Data;
using BenchWeb.Guard.Audit;
using BenchWeb.Guard.Security;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;

namespace BenchWeb.Uploads;

/// <summary>CSV workload files uploaded to the dashboard: streamed into the data folder's <c>uploads</c> folder under a
/// name the server makes up, checked whole as the engine will read them, and described in the database. Plans from the
/// web name these files by number; only this store turns a number into a path. Storing, refusing and deleting a file are
/// recorded in the audit log, so the pages and the API are recorded alike.</summary>
public sealed partial class CsvUploadStore(
    IDbContextFactory<BenchDbContext> databases,
    ProfilePlansReader profilePlans,
    PendingRunPlansReader pendingRunPlans,
    AuditLog audit,
    IOptions<BenchWebOptions> options,
    TimeProvider time,
    ILogger<CsvUploadStore> logger)
{
    public const string FolderName = "uploads";

    private const string StoredExtension = ".csv";
    private const string PartialExtension = ".partial";
    private const int CopyBufferSize = 81_920;

    /// <summary>Why a multipart body the reader cannot frame is refused.</summary>
    public const string MalformedMultipart = "The multipart body is malformed.";

    /// <summary>Why a file over <see cref="MaxBytes"/> is refused.</summary>
    public string TooLargeReason => $"The file is larger than {Describe(MaxBytes)}, the most this installation accepts.";

    /// <summary>Where uploaded files are kept.</summary>
    public string Folder => Path.Combine(options.Value.ResolveDataDirectory(), FolderName);

    /// <summary>The largest file accepted (<see cref="BenchWebOptions.MaxUploadBytes"/>).</summary>
    public long MaxBytes => options.Value.MaxUploadBytes;

    /// <summary>Streams <paramref name="content"/> to disk, checks it, and records it. Anything refused, failed or
    /// cancelled leaves no file and no row behind; a refusal is recorded in the audit log (<see cref="RecordRefusalAsync"/>).</summary>
    /// <param name="content">The file's bytes; read once, to its end or until it is refused.</param>
    /// <param name="clientName">The name the client gave; only shown, after <see cref="UploadedFileName.Sanitise"/>.</param>
    /// <param name="actor">Who uploads it (recorded as the uploader and in the audit log).</param>
    /// <param name="cancellationToken">Cancels the upload; what was written so far is removed.</param>
    public async Task<CsvUploadResult> SaveAsync(Stream content, string? clientName, Actor actor, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(content);
        ArgumentNullException.ThrowIfNull(actor);
        var uploadedBy = actor.UserId;
        // The name is shown to every viewer: one that holds a credential is refused before the body is read (the audit log
        // records the refusal with the credential redacted).
        if (clientName is not null && CredentialRedaction.FindCredential(clientName) is { } credential)
        {
            var why = "The file's name " + char.ToLowerInvariant(PlainText.CredentialMessage(credential)[0]) + PlainText.CredentialMessage(credential)[1..];
            await RecordRefusalAsync(actor, clientName, null, why, CancellationToken.None);
            return CsvUploadResult.Refused(why);
        }

        Directory.CreateDirectory(Folder);
        var storedName = Guid.NewGuid().ToString("N") + StoredExtension;
        var partial = Path.Combine(Folder, storedName + PartialExtension);
        var stored = Path.Combine(Folder, storedName);
        try
        {
            long size;
            string sha256;
            CsvUploadResult? refusal;
            try
            {
                (size, sha256, refusal) = await CopyAsync(content, partial, cancellationToken);
            }
            catch (Microsoft.AspNetCore.Http.BadHttpRequestException ex)
            {
                // The server's own refusal of the request (a body over its size limit): answered with its status, recorded here.
                await RecordRefusalAsync(actor, clientName, null, ex.StatusCode == StatusCodes.Status413PayloadTooLarge
                    ? string.Create(CultureInfo.InvariantCulture, $"The request body is larger than the most this installation accepts ({Describe(MaxBytes)}).")
                    : "The request body is malformed.", CancellationToken.None);
                throw;
            }

            if (refusal is not null)
            {
                await RecordRefusalAsync(actor, clientName, null, refusal.Error!.Value.Message, CancellationToken.None);
                return refusal;
            }

            var (columns, rows, error) = await CsvFileCheck.CheckAsync(partial, cancellationToken);
            if (error is not null)
            {
                await RecordRefusalAsync(actor, clientName, size, error, CancellationToken.None);
                return CsvUploadResult.Refused(error);
            }

            // Named only once whole and checked: a file under a final name is always a complete, valid upload.
            File.Move(partial, stored);
            var file = new UploadedFileEntity
            {
                DisplayName = UploadedFileName.Sanitise(clientName),
                StoredName = storedName,
                SizeBytes = size,
                Sha256 = sha256,
                ColumnCount = columns,
                RowCount = rows,
                UploadedBy = uploadedBy,
                UploadedAt = time.GetUtcNow(),
            };
            try
            {
                await using var db = await databases.CreateDbContextAsync(cancellationToken);
                db.UploadedFiles.Add(file);
                await db.SaveChangesAsync(cancellationToken);
                audit.Append(db, actor, AuditActions.FileUploaded, Subject(file),
                    string.Create(CultureInfo.InvariantCulture, $"{Describe(size)}, {rows:N0} row{(rows == 1 ? "" : "s")} of {columns} column{(columns == 1 ? "" : "s")}, SHA-256 {sha256}"));
                await db.SaveChangesAsync(cancellationToken);
            }
            catch
            {
                File.Delete(stored);
                throw;
            }

            LogStored(logger, file.Id, size, rows, uploadedBy);
            return CsvUploadResult.Stored(file);
        }
        finally
        {
            File.Delete(partial);
        }
    }

    /// <summary>Records a refused upload in the audit log (<see cref="AuditActions.FileRefused"/>): who, the file's name as it
    /// would be shown (<see cref="UploadedFileName.Sanitise"/>; "an upload" when the request named none), its size when known,
    /// and the reason. Never the file's content: the reasons are the store's and the request checks' own words.</summary>
    /// <param name="actor">Who uploaded it.</param>
    /// <param name="clientName">The name the client gave, if it got that far; null when none was read.</param>
    /// <param name="sizeBytes">The size of what was sent, when known (the whole file, or the request's announced length).</param>
    /// <param name="reason">Why it was refused, as the uploader was told.</param>
    /// <param name="cancellationToken">Cancels the write.</param>
    public async Task RecordRefusalAsync(Actor actor, string? clientName, long? sizeBytes, string reason, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(actor);
        ArgumentNullException.ThrowIfNull(reason);
        LogRefused(logger, actor.UserId, reason);
        var subject = clientName is null ? "an upload" : $"upload “{UploadedFileName.Sanitise(clientName)}”";
        await audit.RecordAsync(actor, AuditActions.FileRefused, subject, sizeBytes is { } size ? $"{Describe(size)}: {reason}" : reason, null, cancellationToken);
    }

    public async Task<IReadOnlyList<UploadedFileEntity>> ListAsync(CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        return await db.UploadedFiles.AsNoTracking().OrderByDescending(f => f.UploadedAt).ThenByDescending(f => f.Id).ToListAsync(cancellationToken);
    }

    public async Task<UploadedFileEntity?> FindAsync(long id, CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        return await db.UploadedFiles.AsNoTracking().SingleOrDefaultAsync(f => f.Id == id, cancellationToken);
    }

    /// <summary>The stored file's path: for the engine, in memory, never for a page, a message or a stored plan.</summary>
    internal string PathOf(UploadedFileEntity file) => Path.Combine(Folder, Path.GetFileName(file.StoredName));

    /// <summary>Id → stored path, for <see cref="WebPlanRules"/>: the uploaded files whose stored copy is present.</summary>
    public async Task<Func<long, string?>> LookupAsync(RunPlan plan, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(plan);
        if (plan.Workload.CsvFileId is not { } id)
        {
            return static _ => null;
        }

        var path = await FindAsync(id, cancellationToken) is { } file && File.Exists(PathOf(file)) ? PathOf(file) : null;
        return wanted => wanted == id ? path : null;
    }

    /// <summary>Id → stored path for every file listed (the profile editor checks its choice as the user types).</summary>
    public Func<long, string?> Lookup(IEnumerable<UploadedFileEntity> files)
    {
        var paths = files.ToDictionary(f => f.Id, PathOf);
        return id => paths.GetValueOrDefault(id);
    }

    /// <summary>The plan's problems as a plan from the web: <see cref="WebPlanRules"/> over the engine's own rules.</summary>
    public async Task<IReadOnlyList<FieldError>> ValidateAsync(RunPlan plan, CancellationToken cancellationToken) =>
        (await CheckAsync(plan, cancellationToken)).Errors;

    /// <summary>Checks a plan from the web once (<see cref="WebPlanRules.Check"/>) with its uploaded file as stored now.</summary>
    public async Task<(CheckedWebPlan? Plan, IReadOnlyList<FieldError> Errors)> CheckAsync(RunPlan plan, CancellationToken cancellationToken) =>
        WebPlanRules.Check(plan, await LookupAsync(plan, cancellationToken));

    /// <summary>What needs each file: profiles naming it, and runs queued or running with it.</summary>
    public async Task<ILookup<long, UploadedFileUse>> UsesAsync(CancellationToken cancellationToken)
    {
        // Plans are JSON text; only those that mention a file are read.
        var profiles = await profilePlans("csvFileId", cancellationToken);
        var runs = await pendingRunPlans("csvFileId", cancellationToken);
        return profiles.Select(p => (FileId: FileIdOf(p.PlanJson), Use: new UploadedFileUse(UploadedFileUse.Profile, p.Id, p.Name)))
            .Concat(runs.Select(r => (FileId: FileIdOf(r.PlanJson), Use: new UploadedFileUse(UploadedFileUse.Run, r.Id, r.Name))))
            .Where(u => u.FileId is not null)
            .ToLookup(u => u.FileId!.Value, u => u.Use);
    }

    /// <summary>Deletes the file and its row, unless a profile names it or a queued or running run needs it.</summary>
    public async Task<UploadDeletion> DeleteAsync(long id, Actor actor, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(actor);
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        if (await db.UploadedFiles.SingleOrDefaultAsync(f => f.Id == id, cancellationToken) is not { } file)
        {
            return new UploadDeletion(false, []);
        }

        var uses = (await UsesAsync(cancellationToken))[id].ToList();
        if (uses.Count > 0)
        {
            return new UploadDeletion(true, uses);
        }

        db.UploadedFiles.Remove(file);
        audit.Append(db, actor, AuditActions.FileDeleted, Subject(file),
            string.Create(CultureInfo.InvariantCulture, $"{Describe(file.SizeBytes)}, SHA-256 {file.Sha256}, uploaded by {file.UploadedBy}"));
        await db.SaveChangesAsync(cancellationToken);
        try
        {
            File.Delete(PathOf(file));
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            // The row is gone, so nothing can name the file; the next start-up removes it. The exception's message
            // would name the stored path, so only its kind is logged.
            LogDeleteFailed(logger, id, ex.GetType().Name);
        }

        LogDeleted(logger, id);
        return new UploadDeletion(true, []);
    }

    /// <summary>Removes what an interrupted upload left (a partial file, or a file whose row was never written).</summary>
    public async Task<int> DeleteLeftoversAsync(CancellationToken cancellationToken)
    {
        if (!Directory.Exists(Folder))
        {
            return 0;
        }

        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        var known = (await db.UploadedFiles.AsNoTracking().Select(f => f.StoredName).ToListAsync(cancellationToken)).ToHashSet(StringComparer.Ordinal);
        var removed = 0;
        foreach (var path in Directory.EnumerateFiles(Folder))
        {
            if (!known.Contains(Path.GetFileName(path)))
            {
                File.Delete(path);
                removed++;
            }
        }

        return removed;
    }

    private async Task<(long Size, string Sha256, CsvUploadResult? Refusal)> CopyAsync(Stream content, string path, CancellationToken cancellationToken)
    {
        var max = MaxBytes;
        var buffer = ArrayPool<byte>.Shared.Rent(CopyBufferSize);
        try
        {
            using var hash = IncrementalHash.CreateHash(HashAlgorithmName.SHA256);
            await using var file = new FileStream(path, FileMode.CreateNew, FileAccess.Write, FileShare.None, CopyBufferSize, FileOptions.Asynchronous);
            long size = 0;
            var headerEnded = false;
            while (true)
            {
                int read;
                try
                {
                    read = await content.ReadAsync(buffer.AsMemory(0, CopyBufferSize), cancellationToken);
                }
                catch (IOException ex) when (ex is not Microsoft.AspNetCore.Http.BadHttpRequestException && !cancellationToken.IsCancellationRequested)
                {
                    // (The server's own refusals, such as a body over its size limit, keep their status.)
                    // The body ended before the file did: a multipart body whose boundary never closes, or a request cut off.
                    return (0, "", CsvUploadResult.Refused("The upload ended before the file did: the request was cut off, or its multipart body never closed its boundary."));
                }
                catch (InvalidDataException)
                {
                    // The multipart reader's own complaint about the body's framing within the file's part (not about the CSV file).
                    return (0, "", CsvUploadResult.Refused(MalformedMultipart));
                }

                if (read == 0)
                {
                    break;
                }

                var chunk = buffer.AsSpan(0, read);
                if (size + read > max)
                {
                    return (0, "", CsvUploadResult.Refused(TooLargeReason, tooLarge: true));
                }

                if (chunk.Contains((byte)0))
                {
                    return (0, "", CsvUploadResult.Refused("The file contains NUL bytes: it is binary (or UTF-16), not a CSV text file."));
                }

                // Caught here rather than when parsing: a file with no line break would otherwise be written whole first.
                if (!headerEnded)
                {
                    headerEnded = chunk.IndexOfAny((byte)'\n', (byte)'\r') >= 0;
                    if (!headerEnded && size + read > CsvFileCheck.MaxHeaderChars)
                    {
                        return (0, "", CsvUploadResult.Refused($"The header row is longer than {CsvFileCheck.MaxHeaderChars / 1024} KB."));
                    }
                }

                hash.AppendData(chunk);
                await file.WriteAsync(buffer.AsMemory(0, read), cancellationToken);
                size += read;
            }

            return (size, Convert.ToHexStringLower(hash.GetHashAndReset()), null);
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    /// <summary>"file #3 “flights.csv”", as the audit log names an uploaded file.</summary>
    private static string Subject(UploadedFileEntity file) => $"file #{file.Id} “{file.DisplayName}”";

    private static long? FileIdOf(string planJson)
    {
        try
        {
            return RunPlan.FromJson(planJson).Workload.CsvFileId;
        }
        catch (RunPlanValidationException)
        {
            return null;
        }
    }

    /// <summary>"512 MB", "4 KB", "900 bytes".</summary>
    public static string Describe(long bytes) => bytes switch
    {
        >= 1024 * 1024 => string.Create(CultureInfo.InvariantCulture, $"{bytes / (1024.0 * 1024):0.#} MB"),
        >= 1024 => string.Create(CultureInfo.InvariantCulture, $"{bytes / 1024.0:0.#} KB"),
        _ => string.Create(CultureInfo.InvariantCulture, $"{bytes:N0} bytes"),
    };

    [LoggerMessage(Level = LogLevel.Information, Message = "Uploaded file {FileId} stored: {Bytes} bytes, {Rows} rows, by {UserId}")]
    private static partial void LogStored(ILogger logger, long fileId, long bytes, long rows, string userId);

    [LoggerMessage(Level = LogLevel.Information, Message = "An upload by {UserId} was refused: {Reason}")]
    private static partial void LogRefused(ILogger logger, string userId, string reason);

    [LoggerMessage(Level = LogLevel.Information, Message = "Uploaded file {FileId} deleted")]
    private static partial void LogDeleted(ILogger logger, long fileId);

    [LoggerMessage(Level = LogLevel.Warning, Message = "Uploaded file {FileId}: its row is deleted but its file could not be ({Error}); the next start-up removes it")]
    private static partial void LogDeleteFailed(ILogger logger, long fileId, string error);
}
