using System.Net;
using System.Net.Http.Headers;
using System.Text;
using System.Text.Json.Nodes;
using BenchEngine.Running;
using BenchEngine.Workloads;
using BenchWeb.Data;
using BenchWeb.Guard.Security;
using BenchWeb.Tests.Support;
using BenchWeb.Uploads;
using Microsoft.EntityFrameworkCore;
using static BenchWeb.Tests.Integration.RunsApiTests;

namespace BenchWeb.Tests.Integration;

/// <summary><c>/api/files</c> and plans that name files, through the real app on a loopback port (Kestrel, SQLite, the
/// job scheduler, the simulated target).</summary>
[IntegrationTest]
public sealed class FilesApiTests : IDisposable
{
    private static readonly TimeSpan RunTimeout = TimeSpan.FromSeconds(60);

    private readonly string _serverFiles = Directory.CreateTempSubdirectory("benchweb-server-files-").FullName;

    [Fact]
    public async Task Upload_MultipartCsvAsRunner_Returns201AndTheFileIsListedAndDescribed()
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);

        using var response = await CsvUploads.PostMultipartAsync(http, CsvUploads.Flights(40), "..\\january flights.csv");

        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
        var created = await ReadAsync(response);
        var id = created["id"]!.GetValue<long>();
        Assert.Equal($"/api/files/{id}", response.Headers.Location?.OriginalString);
        Assert.Equal("january flights.csv", created["name"]!.GetValue<string>());
        Assert.Equal(40, created["rowCount"]!.GetValue<long>());
        Assert.Equal(5, created["columnCount"]!.GetValue<int>());
        Assert.Equal(Encoding.UTF8.GetByteCount(CsvUploads.Flights(40)), created["sizeBytes"]!.GetValue<long>());
        Assert.Matches("^[0-9a-f]{64}$", created["sha256"]!.GetValue<string>());
        Assert.Equal(UserDirectory.LocalId("test Runner"), created["uploadedBy"]!.GetValue<string>());
        Assert.Null(created["storedName"]);
        var listed = Assert.Single((await GetJsonAsync(http, "api/files")).AsArray());
        Assert.True(JsonNode.DeepEquals(created, listed), $"{created}\n≠\n{listed}");
        Assert.True(JsonNode.DeepEquals(created, await GetJsonAsync(http, $"api/files/{id}")));
        // Kept in the data folder's own uploads folder, under a name the server made up.
        var stored = Assert.Single(Directory.GetFiles(Path.Combine(host.DataDirectory, CsvUploadStore.FolderName)));
        Assert.Matches("^[0-9a-f]{32}\\.csv$", Path.GetFileName(stored));
        Assert.Equal(CsvUploads.Flights(40), await File.ReadAllTextAsync(stored));
        Assert.DoesNotContain(host.DataDirectory, listed!.ToJsonString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Upload_TextCsvBody_IsStoredUnderTheNameFromTheQuery()
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);

        using var response = await http.PostAsync("api/files?name=feb.csv", new StringContent(CsvUploads.Flights(7), Encoding.UTF8, "text/csv"));

        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
        var file = await ReadAsync(response);
        Assert.Equal("feb.csv", file["name"]!.GetValue<string>());
        Assert.Equal(7, file["rowCount"]!.GetValue<long>());
    }

    [Theory]
    [InlineData("AccountKey=C2y6yDjf5R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==.csv", "AccountKey=…")]
    [InlineData("export https://user:tok3n@dev.azure.com.csv", "a user name and password in an address")]
    public async Task Upload_WhoseNameHoldsACredential_IsRefusedAndKeepsNothing(string name, string what)
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);

        using var response = await http.PostAsync($"api/files?name={Uri.EscapeDataString(name)}", new StringContent(CsvUploads.Flights(7), Encoding.UTF8, "text/csv"));

        var problem = await AssertProblemAsync(response, HttpStatusCode.BadRequest);
        var error = problem["errors"]!["file"]![0]!.GetValue<string>();
        Assert.StartsWith("The file's name looks like it holds a credential (", error, StringComparison.Ordinal);
        Assert.Contains(what, error, StringComparison.Ordinal);
        Assert.DoesNotContain("tok3n", error, StringComparison.Ordinal);
        await AssertNothingStoredAsync(host, http);
    }

    [Fact]
    public async Task Upload_OverTheSizeLimit_Returns413AndKeepsNothing()
    {
        await using var host = await DashboardHost.StartAsync(new Dictionary<string, string?> { ["BenchWeb:MaxUploadBytes"] = "4096" });
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);
        var content = Encoding.UTF8.GetBytes(CsvUploads.Flights(3_000));
        Assert.True(content.Length > 4096 + 64 * 1024);

        // Its length announced: refused before it is read. Without a length: refused while it streams in.
        using var announced = await CsvUploads.PostMultipartAsync(http, content, "big.csv");
        using var streamed = await http.PostAsync("api/files", new StreamContent(new MemoryStream(content[..10_000])) { Headers = { ContentType = new MediaTypeHeaderValue("text/csv") } });

        await AssertProblemAsync(announced, HttpStatusCode.RequestEntityTooLarge);
        var problem = await AssertProblemAsync(streamed, HttpStatusCode.RequestEntityTooLarge);
        Assert.Contains("larger than 4 KB", problem["title"]!.GetValue<string>(), StringComparison.Ordinal);
        await AssertNothingStoredAsync(host, http);
    }

    [Fact]
    public async Task Upload_LargerThanTheApiBodyLimit_IsAcceptedUpToTheUploadLimit()
    {
        // JSON bodies are limited to 16 KB here; the upload endpoint raises the limit (Kestrel's too) to its own.
        await using var host = await DashboardHost.StartAsync(new Dictionary<string, string?>
        {
            ["BenchWeb:MaxRequestBodyBytes"] = "16384",
            ["BenchWeb:MaxUploadBytes"] = "1048576",
        });
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);
        var content = CsvUploads.Flights(8_000);
        Assert.True(content.Length > 200_000);

        using var announced = await CsvUploads.PostMultipartAsync(http, content, "a.csv");
        using var streamed = await http.PostAsync("api/files", new StreamContent(new MemoryStream(Encoding.UTF8.GetBytes(content))) { Headers = { ContentType = new MediaTypeHeaderValue("text/csv") } });
        using var json = await http.PostAsync("api/profiles", new StringContent(new string(' ', 20_000) + "{}", Encoding.UTF8, "application/json"));

        Assert.True(announced.StatusCode == HttpStatusCode.Created, await announced.Content.ReadAsStringAsync());
        Assert.True(streamed.StatusCode == HttpStatusCode.Created, await streamed.Content.ReadAsStringAsync());
        Assert.Equal(8_000, (await ReadAsync(streamed))["rowCount"]!.GetValue<long>());
        await AssertProblemAsync(json, HttpStatusCode.RequestEntityTooLarge);
    }

    [Theory]
    [InlineData("binary")]
    [InlineData("no header")]
    [InlineData("stray quote")]
    public async Task Upload_NotACsvFile_Returns400NamingTheFileFieldAndKeepsNothing(string kind)
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);
        var content = kind switch
        {
            "binary" => [0x89, (byte)'P', (byte)'N', (byte)'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D],
            "no header" => Encoding.UTF8.GetBytes("\n\n"),
            _ => Encoding.UTF8.GetBytes("Origin,Dest\nSEA,LA\"X " + CsvUploads.SecretLine + "\n"),
        };

        using var response = await CsvUploads.PostMultipartAsync(http, content, "picture.csv");

        var problem = await AssertProblemAsync(response, HttpStatusCode.BadRequest);
        var message = Assert.Single(problem["errors"]!["file"]!.AsArray())!.GetValue<string>();
        Assert.DoesNotContain("TOP-SECRET", problem.ToJsonString(), StringComparison.Ordinal);
        Assert.DoesNotContain("PNG", message, StringComparison.Ordinal);
        await AssertNothingStoredAsync(host, http);
    }

    [Fact]
    public async Task Upload_OtherContentTypeOrNoFileField_Returns415Or400()
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);

        using var json = await http.PostAsync("api/files", new StringContent("{}", Encoding.UTF8, "application/json"));
        using var wrongField = await CsvUploads.PostMultipartAsync(http, Encoding.UTF8.GetBytes(CsvUploads.Flights(2)), "a.csv", field: "upload");

        await AssertProblemAsync(json, HttpStatusCode.UnsupportedMediaType);
        var problem = await AssertProblemAsync(wrongField, HttpStatusCode.BadRequest);
        Assert.Contains("form field 'file'", problem["errors"]!["file"]![0]!.GetValue<string>(), StringComparison.Ordinal);
        await AssertNothingStoredAsync(host, http);
    }

    [Fact]
    public async Task Upload_MultipartBodyWhoseBoundaryNeverCloses_Is400SayingSo_NotA500()
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);
        const string Body = "--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"x.csv\"\r\nContent-Type: text/csv\r\n\r\nOrigin,Dest\nSEA,LAX\n";
        using var content = new ByteArrayContent(Encoding.UTF8.GetBytes(Body));
        content.Headers.ContentType = MediaTypeHeaderValue.Parse("multipart/form-data; boundary=b");

        using var response = await http.PostAsync("api/files", content);

        var problem = await AssertProblemAsync(response, HttpStatusCode.BadRequest);
        Assert.Contains("never closed its boundary", problem.ToJsonString(), StringComparison.Ordinal);
        Assert.Empty(Directory.GetFiles(Path.Combine(host.DataDirectory, CsvUploadStore.FolderName)));
    }

    [Fact]
    public async Task Upload_Refused_IsAuditedWithItsUserNameSizeAndReason_NeverItsContent()
    {
        await using var host = await DashboardHost.StartAsync(new Dictionary<string, string?> { ["BenchWeb:MaxUploadBytes"] = "4096" });
        using var runner = await host.CreateClientAsync(BenchWebRoles.Runner);
        using var viewer = await host.CreateClientAsync(BenchWebRoles.Viewer);
        using var admin = await host.CreateClientAsync(BenchWebRoles.Admin);
        byte[] latin1 = [.. Encoding.ASCII.GetBytes("City,Country\nZ"), 0xFC, .. Encoding.ASCII.GetBytes("rich,CH\n" + CsvUploads.SecretLine + "\n")];
        byte[] png = [0x89, (byte)'P', (byte)'N', (byte)'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, .. Encoding.ASCII.GetBytes(CsvUploads.SecretLine)];
        var big = Encoding.UTF8.GetBytes(CsvUploads.Flights(3_000));
        using var unclosed = new ByteArrayContent(Encoding.UTF8.GetBytes(
            "--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"cut.csv\"\r\nContent-Type: text/csv\r\n\r\n" + CsvUploads.SecretLine + "\n"));
        unclosed.Headers.ContentType = MediaTypeHeaderValue.Parse("multipart/form-data; boundary=b");

        // Refused by the store (not UTF-8, binary, too large as it streams in, cut off), by the endpoint (no file field),
        // and by the request limits before the endpoint reads anything (an announced length over the limit).
        using var notUtf8 = await CsvUploads.PostMultipartAsync(runner, latin1, "C:\\data\\latin1.csv");
        using var binary = await CsvUploads.PostMultipartAsync(runner, png, "picture.csv");
        using var streamed = await runner.PostAsync($"api/files?name={Uri.EscapeDataString("../big\u0007\u202Etxt.csv")}",
            new StreamContent(new MemoryStream(big[..10_000])) { Headers = { ContentType = new MediaTypeHeaderValue("text/csv") } });
        using var cut = await runner.PostAsync("api/files", unclosed);
        using var noFileField = await CsvUploads.PostMultipartAsync(runner, Encoding.UTF8.GetBytes(CsvUploads.Flights(2)), "a.csv", field: "upload");
        // Last on each client: refused unread, its connection is closed rather than drained.
        using var announced = await CsvUploads.PostMultipartAsync(runner, big, "announced.csv");
        // A caller who may not upload is refused for who they are, as on every endpoint: no upload of theirs was refused.
        using var byViewer = await CsvUploads.PostMultipartAsync(viewer, big, "viewer.csv");

        Assert.Equal(
            [HttpStatusCode.BadRequest, HttpStatusCode.BadRequest, HttpStatusCode.RequestEntityTooLarge, HttpStatusCode.BadRequest,
                HttpStatusCode.BadRequest, HttpStatusCode.RequestEntityTooLarge, HttpStatusCode.RequestEntityTooLarge],
            new[] { notUtf8, binary, streamed, cut, noFileField, announced, byViewer }.Select(r => r.StatusCode));
        var entries = (await GetJsonAsync(admin, $"api/audit?action={BenchWeb.Guard.Audit.AuditActions.FileRefused}&pageSize=100"))["items"]!.AsArray()
            .Select(e => e!).Reverse().ToList();
        Assert.All(entries, e =>
        {
            Assert.Equal("test Runner", e["userName"]!.GetValue<string>());
            Assert.Equal(BenchWebRoles.Runner, e["role"]!.GetValue<string>());
            Assert.DoesNotContain("TOP-SECRET", e.ToJsonString(), StringComparison.Ordinal);
            Assert.DoesNotContain("rich", e.ToJsonString(), StringComparison.Ordinal);
        });
        var refused = entries.Select(e => (Subject: e["subject"]!.GetValue<string>(), Details: e["details"]!.GetValue<string>())).ToList();
        Assert.True(refused.Count == 6, string.Join("\n", refused));
        Assert.Equal("upload “latin1.csv”", refused[0].Subject);
        Assert.StartsWith($"{latin1.Length} bytes: The file is not UTF-8 text", refused[0].Details, StringComparison.Ordinal);
        Assert.Equal(("upload “picture.csv”", "The file contains NUL bytes: it is binary (or UTF-16), not a CSV text file."), refused[1]);
        Assert.Equal(("upload “bigtxt.csv”", "The file is larger than 4 KB, the most this installation accepts."), refused[2]);
        Assert.Equal("upload “cut.csv”", refused[3].Subject);
        Assert.StartsWith("The upload ended before the file did", refused[3].Details, StringComparison.Ordinal);
        Assert.Equal("an upload", refused[4].Subject);
        Assert.Matches("^[0-9,]+ bytes: Send the CSV file as the form field 'file'\\.$", refused[4].Details);
        Assert.Equal("an upload", refused[5].Subject);
        Assert.Matches("^[0-9.]+ KB: The file is larger than 4 KB, the most this installation accepts\\.$", refused[5].Details);
        await AssertNothingStoredAsync(host, admin);
    }

    [Fact]
    public async Task Upload_ClientAbortsMidway_LeavesNothingBehind()
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);
        var content = Encoding.UTF8.GetBytes(CsvUploads.Flights(20_000));

        await Assert.ThrowsAnyAsync<Exception>(() => http.PostAsync("api/files", new StreamContent(new BreakingStream(content, breakAfter: 300_000)) { Headers = { ContentType = new MediaTypeHeaderValue("text/csv") } }));

        var folder = Path.Combine(host.DataDirectory, CsvUploadStore.FolderName);
        await Eventually.TrueAsync(() => Task.FromResult(!Directory.Exists(folder) || Directory.GetFiles(folder).Length == 0), TimeSpan.FromSeconds(10), "the partial upload to be removed");
        await AssertNothingStoredAsync(host, http);
    }

    [Fact]
    public async Task Roles_ViewerOnlyLists_RunnerUploads_AdminDeletes()
    {
        await using var host = await DashboardHost.StartAsync();
        using var viewer = await host.CreateClientAsync(BenchWebRoles.Viewer);
        using var runner = await host.CreateClientAsync(BenchWebRoles.Runner);
        using var admin = await host.CreateClientAsync(BenchWebRoles.Admin);

        using var viewerUpload = await CsvUploads.PostMultipartAsync(viewer, CsvUploads.Flights(2), "v.csv");
        await AssertProblemAsync(viewerUpload, HttpStatusCode.Forbidden);
        await AssertNothingStoredAsync(host, viewer);
        var id = await CsvUploads.UploadAsync(runner, CsvUploads.Flights(2));
        Assert.Single((await GetJsonAsync(viewer, "api/files")).AsArray());
        Assert.Equal(id, (await GetJsonAsync(viewer, $"api/files/{id}"))["id"]!.GetValue<long>());
        using var viewerDelete = await viewer.DeleteAsync($"api/files/{id}");
        using var runnerDelete = await runner.DeleteAsync($"api/files/{id}");
        await AssertProblemAsync(viewerDelete, HttpStatusCode.Forbidden);
        await AssertProblemAsync(runnerDelete, HttpStatusCode.Forbidden);
        Assert.Single((await GetJsonAsync(viewer, "api/files")).AsArray());

        using var deleted = await admin.DeleteAsync($"api/files/{id}");
        using var again = await admin.DeleteAsync($"api/files/{id}");
        using var read = await admin.GetAsync($"api/files/{id}");

        Assert.Equal(HttpStatusCode.NoContent, deleted.StatusCode);
        await AssertProblemAsync(again, HttpStatusCode.NotFound);
        await AssertProblemAsync(read, HttpStatusCode.NotFound);
        await AssertNothingStoredAsync(host, admin);
    }

    [Fact]
    public async Task Delete_FileNamedByAProfile_Returns409NamingTheProfileAndKeepsTheFile()
    {
        await using var host = await DashboardHost.StartAsync();
        using var admin = await host.CreateClientAsync(BenchWebRoles.Admin);
        var id = await CsvUploads.UploadAsync(admin, CsvUploads.Flights(5));
        using var profile = await PostJsonAsync(admin, "api/profiles", new { name = "BTS January", plan = CsvPlan(fileId: id) });
        Assert.Equal(HttpStatusCode.Created, profile.StatusCode);
        var profileId = (await ReadAsync(profile))["id"]!.GetValue<long>();

        using var refused = await admin.DeleteAsync($"api/files/{id}");

        var problem = await AssertProblemAsync(refused, HttpStatusCode.Conflict);
        Assert.Contains($"profile {profileId} “BTS January”", problem["detail"]!.GetValue<string>(), StringComparison.Ordinal);
        Assert.Equal(profileId, problem["usedBy"]![0]!["id"]!.GetValue<long>());
        var file = await GetJsonAsync(admin, $"api/files/{id}");
        Assert.Equal("profile", file["usedBy"]![0]!["kind"]!.GetValue<string>());
        Assert.Single(Directory.GetFiles(Path.Combine(host.DataDirectory, CsvUploadStore.FolderName)));
    }

    [Fact]
    public async Task ServerPath_ThroughEveryWebEntryPoint_Is400AtCsvPathSayingNothingOfTheFile()
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);
        var (existing, missing) = CsvUploads.ServerPaths(_serverFiles);
        var export = await ExportOfACompletedRunAsync(http);
        var answers = new List<(string EntryPoint, string Path, JsonNode Problem)>();

        foreach (var path in new[] { existing, missing, "/etc/passwd" })
        {
            var plan = CsvPlan(path: path);
            using var profile = await PostJsonAsync(http, "api/profiles", new { name = "path", plan });
            using var inline = await PostJsonAsync(http, "api/runs", new { plan });
            using var saved = await PostJsonAsync(http, "api/runs", new { profileId = await LegacyProfileAsync(host, plan) });
            var document = export.DeepClone();
            document["plan"]!["workload"] = JsonNode.Parse(plan.ToJson())!["workload"]!.DeepClone();
            using var import = await http.PostAsync("api/runs/import", new StringContent(document.ToJsonString(), Encoding.UTF8, "application/json"));

            answers.Add(("profiles", path, await AssertProblemAsync(profile, HttpStatusCode.BadRequest)));
            answers.Add(("runs", path, await AssertProblemAsync(inline, HttpStatusCode.BadRequest)));
            answers.Add(("runs by profile", path, await AssertProblemAsync(saved, HttpStatusCode.BadRequest)));
            answers.Add(("import", path, await AssertProblemAsync(import, HttpStatusCode.BadRequest)));
        }

        foreach (var (entryPoint, path, problem) in answers)
        {
            var field = entryPoint == "import" ? "Plan.Workload.CsvPath" : "Workload.CsvPath";
            var errors = problem["errors"]!.AsObject();
            Assert.True(errors.Count == 1, $"{entryPoint} {path}: {errors}");
            Assert.Equal([WebPlanRules.ServerPathMessage], errors[field]!.AsArray().Select(m => m!.GetValue<string>()));
            var text = problem.ToJsonString();
            Assert.DoesNotContain("TOP-SECRET", text, StringComparison.Ordinal);
            Assert.DoesNotContain(_serverFiles, text, StringComparison.Ordinal);
            Assert.DoesNotContain("passwd", text, StringComparison.Ordinal);
        }

        // Whether a file exists there changes nothing in any answer.
        foreach (var group in answers.GroupBy(a => a.EntryPoint))
        {
            var first = group.First().Problem;
            Assert.All(group, a => Assert.True(JsonNode.DeepEquals(first["errors"], a.Problem["errors"]) && JsonNode.DeepEquals(first["title"], a.Problem["title"]), $"{group.Key}: {first} ≠ {a.Problem}"));
        }

        Assert.DoesNotContain((await GetJsonAsync(http, "api/profiles")).AsArray(), p => p!["name"]!.GetValue<string>() == "path");
        Assert.Equal(1, (await GetJsonAsync(http, "api/runs"))["total"]!.GetValue<int>());
    }

    [Fact]
    public async Task UnknownFileId_InAProfileOrARun_Is400AtCsvFileId()
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);

        using var profile = await PostJsonAsync(http, "api/profiles", new { name = "ghost", plan = CsvPlan(fileId: 99) });
        using var run = await PostJsonAsync(http, "api/runs", new { plan = CsvPlan(fileId: 99) });

        foreach (var response in new[] { profile, run })
        {
            var problem = await AssertProblemAsync(response, HttpStatusCode.BadRequest);
            Assert.Equal(["No uploaded file 99."], problem["errors"]!["Workload.CsvFileId"]!.AsArray().Select(m => m!.GetValue<string>()));
        }
    }

    [Fact]
    [Slow]
    public async Task Run_UploadedFile_LandsExactlyItsRowsAndTheSnapshotKeepsTheIdNotAPath()
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);
        var fileId = await CsvUploads.UploadAsync(http, CsvUploads.Flights(1_234));

        // No stop rule: the run ends with the file.
        using var started = await PostJsonAsync(http, "api/runs", new { plan = CsvPlan(fileId: fileId) with { Stop = new StopOptions() } });

        Assert.Equal(HttpStatusCode.Accepted, started.StatusCode);
        var runId = (await ReadAsync(started))["id"]!.GetValue<long>();
        var run = await host.WaitUntilEndedAsync(runId, RunTimeout);
        Assert.True(run.Status == RunStatus.Completed, $"{run.Status}: {run.FailureReason}");
        Assert.Equal(1_234, (await host.SecondsAsync(runId)).Sum(s => s.Ok));
        Assert.Equal(1_234, (await GetJsonAsync(http, $"api/runs/{runId}"))["summary"]!["totalOk"]!.GetValue<long>());
        var snapshot = RunPlan.FromJson(run.PlanJson);
        Assert.Equal(fileId, snapshot.Workload.CsvFileId);
        Assert.Null(snapshot.Workload.CsvPath);
        var export = await GetJsonAsync(http, $"api/runs/{runId}/export.json");
        foreach (var text in new[] { run.PlanJson, export.ToJsonString() })
        {
            Assert.DoesNotContain("csvPath", text, StringComparison.OrdinalIgnoreCase);
            Assert.DoesNotContain(CsvUploadStore.FolderName, text, StringComparison.Ordinal);
            Assert.DoesNotContain(host.DataDirectory, text, StringComparison.Ordinal);
        }
    }

    private static RunPlan CsvPlan(long? fileId = null, string? path = null) => new()
    {
        Name = "csv",
        Workload = new WorkloadOptions { Shape = DocumentShape.CsvFile, CsvFileId = fileId, CsvPath = path },
        Load = new LoadOptions { Concurrency = 4 },
        Stop = new StopOptions { DurationSeconds = 5 },
    };

    /// <summary>A profile saved before uploads existed, naming a server path.</summary>
    private static async Task<long> LegacyProfileAsync(DashboardHost host, RunPlan plan)
    {
        await using var db = await host.OpenDatabaseAsync();
        var profile = new ProfileEntity { Name = "legacy", PlanJson = plan.ToJson(), CreatedAt = DateTimeOffset.UtcNow, UpdatedAt = DateTimeOffset.UtcNow };
        db.Profiles.Add(profile);
        await db.SaveChangesAsync();
        return profile.Id;
    }

    private static async Task<JsonNode> ExportOfACompletedRunAsync(HttpClient http)
    {
        using var response = await PostJsonAsync(http, "api/runs", new { plan = ShortPlan("to export", seconds: 1) });
        var run = await WaitUntilEndedAsync(http, (await ReadAsync(response))["id"]!.GetValue<long>());
        return await GetJsonAsync(http, $"api/runs/{run["id"]!.GetValue<long>()}/export.json");
    }

    private static async Task AssertNothingStoredAsync(DashboardHost host, HttpClient http)
    {
        var folder = Path.Combine(host.DataDirectory, CsvUploadStore.FolderName);
        Assert.Empty(Directory.Exists(folder) ? Directory.GetFiles(folder) : []);
        Assert.Empty((await GetJsonAsync(http, "api/files")).AsArray());
        await using var db = await host.OpenDatabaseAsync();
        Assert.Equal(0, await db.UploadedFiles.CountAsync());
    }

    public void Dispose() => Directory.Delete(_serverFiles, recursive: true);

    /// <summary>A request body whose connection drops after <paramref name="breakAfter"/> bytes.</summary>
    private sealed class BreakingStream(byte[] content, int breakAfter) : MemoryStream(content)
    {
        public override ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default) =>
            Position >= breakAfter ? throw new IOException("the client went away") : base.ReadAsync(buffer[..Math.Min(buffer.Length, 16_384)], cancellationToken);

        public override int Read(byte[] buffer, int offset, int count) =>
            Position >= breakAfter ? throw new IOException("the client went away") : base.Read(buffer, offset, Math.Min(count, 16_384));
    }
}
