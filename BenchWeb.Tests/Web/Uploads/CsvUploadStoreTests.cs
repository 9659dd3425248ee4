using System.Security.Cryptography;
using System.Text;
using BenchWeb.Tests.Support;
using BenchWeb.Tests.Support.Components;
using BenchWeb.Uploads;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;

namespace BenchWeb.Tests.Web.Uploads;

/// <summary>The upload store over a real SQLite file and a data folder of its own.</summary>
[UnitTest]
public sealed class CsvUploadStoreTests
{

    [Fact]
    public async Task Save_ValidCsv_StoresItUnderAServerNameWithItsCountsAndHash()
    {
        await using var context = new BenchWebComponentContext();
        var store = context.Services.GetRequiredService<CsvUploadStore>();
        var bytes = Encoding.UTF8.GetBytes(CsvUploads.Flights(25));

        var result = await store.SaveAsync(new MemoryStream(bytes), "../../etc/flights jan.csv", TestActors.Runner, CancellationToken.None);

        var file = Assert.IsType<BenchWeb.Data.UploadedFileEntity>(result.File);
        Assert.Null(result.Error);
        Assert.Equal("flights jan.csv", file.DisplayName);
        Assert.Matches("^[0-9a-f]{32}\\.csv$", file.StoredName);
        Assert.Equal(bytes.Length, file.SizeBytes);
        Assert.Equal(Convert.ToHexStringLower(SHA256.HashData(bytes)), file.Sha256);
        Assert.Equal(5, file.ColumnCount);
        Assert.Equal(25, file.RowCount);
        Assert.Equal(TestActors.Runner.UserId, file.UploadedBy);
        Assert.Equal([file.StoredName], Directory.GetFiles(store.Folder).Select(Path.GetFileName));
        Assert.Equal(bytes, await File.ReadAllBytesAsync(Path.Combine(store.Folder, file.StoredName)));
        await using var db = await context.Databases.CreateDbContextAsync();
        Assert.Equal(file.Id, (await db.UploadedFiles.SingleAsync()).Id);
    }

    [Theory]
    [InlineData("", "The file is empty")]
    [InlineData("\n\n", "The file is empty")]
    [InlineData("Origin,Dest\n", "no data rows")]
    [InlineData(",,\n1,2,3\n", "names no columns")]
    [InlineData("Origin,Dest,Origin\nA,B,C\n", "Column 3 of the header row repeats")]
    [InlineData("Origin,Dest\nSEA,LAX\nATL,OR\"D\n", "Line 3, field 2 of the file is not valid CSV: a quote inside a field that is not quoted")]
    [InlineData("Origin,Dest,Carrier\nSEA,LAX,AS\n\nATL,ORD,\"DL\n", "Line 4, field 3 of the file is not valid CSV")]
    [InlineData("Origin,Dest\nSEA,LAX\n\"ATL,ORD\nSEA,SFO\nBOS,JFK\n", "Line 3")]
    [InlineData("Origin,Dest,Carrier\nSEA,LAX,AS\nATL,ORD\n", "Line 3 of the file has 2 fields but the header row has 3: a field is missing.")]
    [InlineData("Origin,Dest\nSEA,LAX,AS\n", "Line 2 of the file has 3 fields but the header row has 2: there are more fields than columns.")]
    public async Task Save_NotARunnableCsv_IsRefusedUnderFileAndLeavesNothing(string content, string expected)
    {
        await using var context = new BenchWebComponentContext();

        var result = await SaveAsync(context, Encoding.UTF8.GetBytes(content));

        await AssertRefusedAsync(context, result, expected);
    }

    [Fact]
    public async Task Save_BinaryFile_IsRefusedWithoutQuotingIt()
    {
        await using var context = new BenchWebComponentContext();
        byte[] png = [0x89, (byte)'P', (byte)'N', (byte)'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, (byte)'I', (byte)'H', (byte)'D', (byte)'R'];

        var result = await SaveAsync(context, png);

        await AssertRefusedAsync(context, result, "NUL bytes");
        Assert.DoesNotContain("PNG", result.Error!.Value.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Save_NotUtf8_IsRefused()
    {
        await using var context = new BenchWebComponentContext();
        byte[] latin1 = [.. Encoding.ASCII.GetBytes("City,Country\nZ"), 0xFC, .. Encoding.ASCII.GetBytes("rich,CH\n")];

        var result = await SaveAsync(context, latin1);

        await AssertRefusedAsync(context, result, "not UTF-8 text");
    }

    [Fact]
    public async Task Save_HeaderLongerThan64KB_IsRefusedBeforeTheRestIsWritten()
    {
        await using var context = new BenchWebComponentContext();
        var header = string.Join(',', Enumerable.Range(0, 20_000).Select(i => $"c{i}"));

        var result = await SaveAsync(context, Encoding.UTF8.GetBytes(header + "\n1\n"));

        await AssertRefusedAsync(context, result, "The header row is longer than 64 KB");
    }

    [Theory]
    [InlineData(64 * 1024, true)]
    [InlineData(64 * 1024 + 1, false)]
    [InlineData(72_000, false)]
    public async Task Save_HeaderAtTheEnginesLimit_IsKept_AndOneCharacterOver_IsRefused(int headerChars, bool kept)
    {
        // A header that ends inside the parser's second buffer once passed the check, and no run could read the file.
        await using var context = new BenchWebComponentContext();
        var columns = string.Join(',', Enumerable.Range(0, 20_000).Select(i => $"c{i}"));
        var header = columns[..columns.LastIndexOf(',', headerChars - 1)] + ",";
        header += new string('z', headerChars - header.Length);

        var result = await SaveAsync(context, Encoding.UTF8.GetBytes(header + "\n1" + new string(',', header.Count(c => c == ',')) + "\n"));

        if (kept)
        {
            Assert.Null(result.Error);
            var store = context.Services.GetRequiredService<CsvUploadStore>();
            // The engine reads the file it kept, as a run would.
            var workload = new BenchEngine.Workloads.WorkloadOptions { Shape = BenchEngine.Workloads.DocumentShape.CsvFile, CsvPath = Path.Combine(store.Folder, result.File!.StoredName) };
            Assert.Empty(BenchEngine.Workloads.DocumentSourceFactory.Validate(workload));
            using var source = BenchEngine.Workloads.DocumentSourceFactory.Create(workload, TimeProvider.System);
            Assert.True(source.TryNext(out _));
        }
        else
        {
            await AssertRefusedAsync(context, result, "The header row is longer than 64 KB");
        }
    }

    [Fact]
    public async Task Save_OneRowLongerThan2MB_IsRefusedWithoutHoldingTheRow()
    {
        await using var context = new BenchWebComponentContext();
        // One quoted field spanning lines: the parser would keep it whole; the bounded reader stops it at 2 MB.
        var huge = "Origin,Notes\nSEA,\"" + string.Concat(Enumerable.Repeat(new string('x', 1_000) + "\n", 6_000)) + "\"\n";

        var result = await SaveAsync(context, Encoding.UTF8.GetBytes(huge));

        await AssertRefusedAsync(context, result, "Data row 1 is longer than 2,097,152 characters");
    }

    [Theory]
    [InlineData(2 * 1024 * 1024 + 1)]
    [InlineData(2_200_000)]
    [InlineData(3_000_000)]
    public async Task Save_OneLineLongerThanTheEnginesRowLimit_IsRefusedNamingTheLine(int rowChars)
    {
        // A row up to twice the limit once passed the check (the bounded reader sees the parser's doubling buffers), and
        // every run of the file then failed at its first row.
        await using var context = new BenchWebComponentContext();
        var row = new string('x', rowChars - 2) + ",1";

        var result = await SaveAsync(context, Encoding.UTF8.GetBytes("a,b\nSEA,1\n" + row + "\n"));

        await AssertRefusedAsync(context, result, "Line 3 of the file (data row 2) is longer than 2,097,152 characters, the most a run reads in one row");
    }

    [Theory]
    [InlineData('x')]
    [InlineData('é')]
    public async Task Save_OneLineAtTheEnginesRowLimit_IsKept_AndARunReadsIt(char filler)
    {
        // The limit counts characters, as the engine reads them, not bytes: 'é' is two bytes of UTF-8, so this row is 4 MB.
        await using var context = new BenchWebComponentContext();
        var row = new string(filler, BenchEngine.Workloads.CsvFileCheck.MaxRowChars - 2) + ",1";

        var result = await SaveAsync(context, Encoding.UTF8.GetBytes("a,b\n" + row + "\n"));

        Assert.Null(result.Error);
        var store = context.Services.GetRequiredService<CsvUploadStore>();
        var workload = new BenchEngine.Workloads.WorkloadOptions { Shape = BenchEngine.Workloads.DocumentShape.CsvFile, CsvPath = Path.Combine(store.Folder, result.File!.StoredName) };
        using var source = BenchEngine.Workloads.DocumentSourceFactory.Create(workload, TimeProvider.System);
        Assert.True(source.TryNext(out _));
    }

    [Fact]
    public async Task Save_LargerThanTheLimit_IsRefusedAsTooLargeAndLeavesNothing()
    {
        await using var context = new BenchWebComponentContext();
        var store = context.Services.GetRequiredService<CsvUploadStore>();
        var content = Encoding.UTF8.GetBytes(CsvUploads.Flights(100_000));
        Assert.True(content.Length > 1024 * 1024);

        var result = await new CsvUploadStore(context.Databases, context.Services.GetRequiredService<BenchWeb.Data.ProfilePlansReader>(), context.Services.GetRequiredService<BenchWeb.Data.PendingRunPlansReader>(), context.Services.GetRequiredService<BenchWeb.Guard.Audit.AuditLog>(), Microsoft.Extensions.Options.Options.Create(new BenchWeb.Configuration.BenchWebOptions
        {
            DataDirectory = Path.GetDirectoryName(store.Folder),
            MaxUploadBytes = 1024 * 1024,
        }), TimeProvider.System, Microsoft.Extensions.Logging.Abstractions.NullLogger<CsvUploadStore>.Instance).SaveAsync(new MemoryStream(content), "big.csv", TestActors.Runner, CancellationToken.None);

        Assert.True(result.TooLarge);
        await AssertRefusedAsync(context, result, "larger than 1 MB");
    }

    [Fact]
    public async Task Save_StreamFailsMidway_IsRefusedAsCutOff_AndLeavesNothing()
    {
        await using var context = new BenchWebComponentContext();
        var store = context.Services.GetRequiredService<CsvUploadStore>();

        // A body that ends before the file did (a multipart boundary that never closes) is the client's mistake: refused, not thrown.
        var result = await store.SaveAsync(new FailingStream(Encoding.UTF8.GetBytes(CsvUploads.Flights(5_000)), failAfter: 100_000), "cut.csv", TestActors.Runner, CancellationToken.None);

        Assert.Null(result.File);
        Assert.StartsWith("The upload ended before the file did", result.Error!.Value.Message, StringComparison.Ordinal);

        Assert.Empty(Directory.GetFiles(store.Folder));
        await using var db = await context.Databases.CreateDbContextAsync();
        Assert.Equal(0, await db.UploadedFiles.CountAsync());
    }

    [Fact]
    public async Task DeleteLeftovers_PartialAndUnrecordedFiles_AreRemovedAndRecordedOnesKept()
    {
        await using var context = new BenchWebComponentContext();
        var store = context.Services.GetRequiredService<CsvUploadStore>();
        var kept = (await SaveAsync(context, Encoding.UTF8.GetBytes(CsvUploads.Flights(2)))).File!;
        await File.WriteAllTextAsync(Path.Combine(store.Folder, "abc.csv.partial"), "Origin\n");
        await File.WriteAllTextAsync(Path.Combine(store.Folder, "def.csv"), "Origin\nSEA\n");

        Assert.Equal(2, await store.DeleteLeftoversAsync(CancellationToken.None));

        Assert.Equal([kept.StoredName], Directory.GetFiles(store.Folder).Select(Path.GetFileName));
    }

    [Theory]
    [InlineData("flights.csv", "flights.csv")]
    [InlineData("C:\\Users\\me\\Desktop\\jan.csv", "jan.csv")]
    [InlineData("../../../etc/passwd", "passwd")]
    [InlineData("a\u0000b\r\n<script> \t x.csv", "abscript x.csv")]
    [InlineData("   ", "upload.csv")]
    [InlineData("..", "upload.csv")]
    [InlineData(null, "upload.csv")]
    [InlineData("vols \ud83d\udeeb.csv", "vols \ud83d\udeeb.csv")]
    public void Sanitise_ClientFileName_KeepsOnlyAShowableLastSegment(string? clientName, string expected) =>
        Assert.Equal(expected, UploadedFileName.Sanitise(clientName));

    [Fact]
    public void Sanitise_LoneSurrogate_IsDroppedRatherThanFailing() =>
        // Built here: a theory's data would be re-encoded (and the surrogate replaced) before the test saw it.
        Assert.Equal("badname.csv", UploadedFileName.Sanitise("bad" + (char)0xD800 + "name.csv"));

    [Fact]
    public void Sanitise_LongName_KeepsItsExtensionWithin200Characters()
    {
        var name = UploadedFileName.Sanitise(new string('a', 500) + ".csv");

        Assert.Equal(200, name.Length);
        Assert.EndsWith("a.csv", name, StringComparison.Ordinal);
    }

    private static Task<CsvUploadResult> SaveAsync(BenchWebComponentContext context, byte[] content) =>
        context.Services.GetRequiredService<CsvUploadStore>().SaveAsync(new MemoryStream(content), "upload.csv", TestActors.Runner, CancellationToken.None);

    private static async Task AssertRefusedAsync(BenchWebComponentContext context, CsvUploadResult result, string expected)
    {
        Assert.Null(result.File);
        var error = Assert.IsType<BenchEngine.Running.FieldError>(result.Error);
        Assert.Equal("file", error.Field);
        Assert.Contains(expected, error.Message, StringComparison.Ordinal);
        var folder = context.Services.GetRequiredService<CsvUploadStore>().Folder;
        Assert.Empty(Directory.Exists(folder) ? Directory.GetFiles(folder) : []);
        await using var db = await context.Databases.CreateDbContextAsync();
        Assert.Equal(0, await db.UploadedFiles.CountAsync());
    }

    /// <summary>A client whose connection drops after <paramref name="failAfter"/> bytes.</summary>
    private sealed class FailingStream(byte[] content, int failAfter) : MemoryStream(content)
    {
        public override int Read(byte[] buffer, int offset, int count) => Position >= failAfter ? throw new IOException("connection reset") : base.Read(buffer, offset, Math.Min(count, 8192));

        public override ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default) =>
            Position >= failAfter ? throw new IOException("connection reset") : base.ReadAsync(buffer[..Math.Min(buffer.Length, 8192)], cancellationToken);
    }
}
