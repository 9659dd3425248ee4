using System.Text.Json;
using Azure.Data.Tables;
using BenchEngine.Metrics;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Integration;

/// <summary>The Table Storage target against Azurite. What landed is always counted by the SDK's own client
/// (<see cref="AzuriteServer.CountEntitiesAsync"/>), never by the target under test.</summary>
[Collection(AzuriteCollection.Name)]
[IntegrationTest]
public class TableTargetTests(AzuriteServer azurite)
{
    private TargetContext Context => ContextFor(azurite.ConnectionString);

    private static TargetContext ContextFor(string connectionString) =>
        new(TimeProvider.System, name => name == "TABLES_CONNECTION_STRING" ? connectionString : null);

    private static string NewTableName() => "t" + Guid.NewGuid().ToString("N")[..16];

    private static TargetOptions TableStorage(string tableName, bool createIfMissing = true) =>
        new() { Kind = TargetKind.TableStorage, Tables = new TableOptions { TableName = tableName, CreateIfMissing = createIfMissing } };

    private static List<Document> Batch(int count, string partitionKey = "pk") =>
        Enumerable.Range(0, count).Select(i => new Document("r" + i, partitionKey, [new("Value", i)])).ToList();

    /// <summary>Azurite reached through a proxy that can hold requests in flight.</summary>
    private string ThroughProxy(StallingProxy proxy) =>
        azurite.ConnectionString.Replace($":{azurite.Port}/", $":{proxy.Port}/", StringComparison.Ordinal);

    private static async Task<IInsertTarget> OpenAsync(TargetOptions options, TargetContext context)
    {
        var target = TargetRegistry.Create(options, context);
        await target.InitializeAsync(CancellationToken.None);
        return target;
    }

    private async Task<(RunResult Result, long InTable)> RunAsync(RunPlan plan)
    {
        var result = await new BenchmarkRunner().RunAsync(plan, Context);
        return (result, await azurite.CountEntitiesAsync(plan.Target.Tables.TableName));
    }

    [Fact]
    public async Task RunAsync_SumOfPerSecondOkEqualsEntitiesInTheTable_WhenWritingSingleInserts()
    {
        var plan = new RunPlan
        {
            Name = "azurite single",
            Target = TableStorage(NewTableName()),
            Load = new LoadOptions { Concurrency = 16 },
            Stop = new StopOptions { TotalDocuments = 1_500 },
        };

        var (result, inTable) = await RunAsync(plan);

        Assert.Equal(RunStatus.Completed, result.Status);
        Assert.Equal(1_500, result.Seconds.Sum(s => s.Ok));
        Assert.Equal(1_500, inTable);
        Assert.Equal(0, result.Summary.TotalErrors);
    }

    [Fact]
    public async Task RunAsync_SumOfPerSecondOkEqualsEntitiesInTheTable_WhenWritingHundredEntityTransactions()
    {
        var plan = new RunPlan
        {
            Name = "azurite batches",
            Target = TableStorage(NewTableName()),
            Workload = new WorkloadOptions { Shape = DocumentShape.Flight },
            Load = new LoadOptions { Model = LoadModel.Waves, Concurrency = 10, BatchSize = 100 },
            Stop = new StopOptions { TotalDocuments = 5_000 },
        };

        var (result, inTable) = await RunAsync(plan);

        Assert.Equal(RunStatus.Completed, result.Status);
        Assert.Equal(5_000, result.Seconds.Sum(s => s.Ok));
        Assert.Equal(5_000, inTable);
        Assert.True(result.Summary.TotalOkRequests < 5_000 / 10, $"{result.Summary.TotalOkRequests} requests for 5,000 entities");
        Assert.True(result.Summary.LatencyIsPerBatch);
    }

    [Fact]
    public async Task RunAsync_SumOfPerSecondOkEqualsEntitiesInTheTable_WhenUpsertingInTransactions()
    {
        var table = NewTableName();
        var plan = new RunPlan
        {
            Name = "azurite upserts",
            Target = TableStorage(table) with { Operation = WriteOperation.Upsert },
            Workload = new WorkloadOptions { Shape = DocumentShape.Flight },
            Load = new LoadOptions { Concurrency = 4, BatchSize = 100 },
            Stop = new StopOptions { TotalDocuments = 1_000 },
        };

        var (result, inTable) = await RunAsync(plan);

        Assert.Equal(RunStatus.Completed, result.Status);
        Assert.Equal(0, result.Summary.TotalErrors);
        Assert.Equal(1_000, result.Seconds.Sum(s => s.Ok));
        Assert.Equal(1_000, inTable);
    }

    [Fact]
    public async Task WriteAsync_LandsExactlyOneHundred_WhenATransactionHoldsOneHundredEntities()
    {
        var table = NewTableName();
        await using var target = await OpenAsync(TableStorage(table), Context);

        var created = await target.WriteAsync(Batch(100), WriteOperation.Create, CancellationToken.None);
        var upserted = await target.WriteAsync(Batch(100), WriteOperation.Upsert, CancellationToken.None);

        Assert.Equal((OutcomeKind.Ok, 202, 100), (created.Kind, created.StatusCode, created.Documents));
        Assert.Equal((OutcomeKind.Ok, 202, 100), (upserted.Kind, upserted.StatusCode, upserted.Documents));
        Assert.True(created.Bytes > 0);
        Assert.Equal(100, await azurite.CountEntitiesAsync(table));
        Assert.Equal(100, await target.CountAsync(CancellationToken.None));
    }

    [Fact]
    public async Task WriteAsync_IsAnErrorThatLandsNothing_WhenATransactionHolds101Entities()
    {
        var table = NewTableName();
        await using var target = await OpenAsync(TableStorage(table), Context);

        var outcome = await target.WriteAsync(Batch(101), WriteOperation.Create, CancellationToken.None);

        Assert.Equal(OutcomeKind.Error, outcome.Kind);
        Assert.Equal(0, outcome.Documents);
        Assert.Contains("at most 100 entities", outcome.Error, StringComparison.Ordinal);
        Assert.Equal(0, await azurite.CountEntitiesAsync(table));
    }

    [Fact]
    public async Task RunAsync_RejectsThePlanBeforeWriting_WhenTheBatchSizeIs101()
    {
        var table = NewTableName();
        var plan = new RunPlan
        {
            Target = TableStorage(table),
            Workload = new WorkloadOptions { Shape = DocumentShape.Flight },
            Load = new LoadOptions { BatchSize = 101 },
            Stop = new StopOptions { TotalDocuments = 101 },
        };

        var ex = await Assert.ThrowsAsync<RunPlanValidationException>(() => new BenchmarkRunner().RunAsync(plan, Context));

        Assert.Contains(ex.Errors, e => e.Field == "Load.BatchSize" && e.Message.Contains("at most 100", StringComparison.Ordinal));
    }

    [Fact]
    public async Task WriteAsync_ReturnsConflictsAsErrorsWithStatusAndCode_WhenTheEntityExists()
    {
        var table = NewTableName();
        await using var target = await OpenAsync(TableStorage(table), Context);
        var document = new Document("row-1", "pk", [new("Value", 1)]);

        var first = await target.WriteAsync([document], WriteOperation.Create, CancellationToken.None);
        var again = await target.WriteAsync([document], WriteOperation.Create, CancellationToken.None);
        var upsert = await target.WriteAsync([document], WriteOperation.Upsert, CancellationToken.None);

        Assert.Equal(OutcomeKind.Ok, first.Kind);
        Assert.Equal((OutcomeKind.Error, 409), (again.Kind, again.StatusCode));
        Assert.StartsWith("409 EntityAlreadyExists", again.Error, StringComparison.Ordinal);
        Assert.Equal(OutcomeKind.Ok, upsert.Kind);
        Assert.Equal(1, await azurite.CountEntitiesAsync(table));
    }

    [Fact]
    public async Task WriteAsync_IsOneErrorWithTheFailingEntitysCode_WhenATransactionFails()
    {
        var table = NewTableName();
        await using var target = await OpenAsync(TableStorage(table), Context);
        await target.WriteAsync([new Document("dup", "pk", [])], WriteOperation.Create, CancellationToken.None);
        var batch = Enumerable.Range(0, 10).Select(i => new Document(i == 5 ? "dup" : "r" + i, "pk", [])).ToList();

        var outcome = await target.WriteAsync(batch, WriteOperation.Create, CancellationToken.None);

        Assert.Equal(OutcomeKind.Error, outcome.Kind);
        Assert.Equal(409, outcome.StatusCode);
        Assert.StartsWith("409 EntityAlreadyExists", outcome.Error, StringComparison.Ordinal);
        Assert.Equal(1, await azurite.CountEntitiesAsync(table));
    }

    [Fact]
    public async Task WriteAsync_StoresTheFieldsAsTypedProperties_WithoutTheReservedNames()
    {
        var table = NewTableName();
        await using var target = await OpenAsync(TableStorage(table), Context);
        var when = new DateTimeOffset(2024, 5, 6, 7, 8, 9, TimeSpan.Zero);
        using var nested = JsonDocument.Parse("""{"a":[1,2]}""");
        var document = new Document("row", "pk",
        [
            new("Text", "hello"), new("Int", 7), new("Long", 1L << 40), new("Double", 2.5), new("Flag", true), new("When", when),
            new("Nested", nested.RootElement.Clone()), new("Missing", null),
            new("PartitionKey", "other"), new("RowKey", "other"), new("Timestamp", when), new("id", "other"),
        ]);

        var outcome = await target.WriteAsync([document], WriteOperation.Create, CancellationToken.None);

        Assert.Equal(OutcomeKind.Ok, outcome.Kind);
        var entity = (await new TableClient(azurite.ConnectionString, table).GetEntityAsync<TableEntity>("pk", "row")).Value;
        Assert.Equal("hello", entity.GetString("Text"));
        Assert.Equal(7, entity.GetInt32("Int"));
        Assert.Equal(1L << 40, entity.GetInt64("Long"));
        Assert.Equal(2.5, entity.GetDouble("Double"));
        Assert.True(entity.GetBoolean("Flag"));
        Assert.Equal(when, entity.GetDateTimeOffset("When"));
        Assert.Equal("""{"a":[1,2]}""", entity.GetString("Nested"));
        Assert.False(entity.ContainsKey("Missing"));
        Assert.False(entity.ContainsKey("id"));
        Assert.NotEqual(when, entity.Timestamp);
    }

    [Theory]
    [InlineData(1)]
    [InlineData(10)]
    public async Task WriteAsync_ThrowsOperationCanceled_WhenTheTokenIsAlreadyCancelled(int documents)
    {
        var table = NewTableName();
        await using var target = await OpenAsync(TableStorage(table), Context);
        using var cancelled = new CancellationTokenSource();
        await cancelled.CancelAsync();

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => target.WriteAsync(Batch(documents), WriteOperation.Create, cancelled.Token));

        Assert.Equal(0, await azurite.CountEntitiesAsync(table));
    }

    [Theory]
    [InlineData(1)]
    [InlineData(100)]
    public async Task WriteAsync_ThrowsOperationCanceledNotAnError_WhenTheTokenIsCancelledInFlight(int documents)
    {
        var table = NewTableName();
        await using var proxy = new StallingProxy(azurite.Port);
        await using var target = await OpenAsync(TableStorage(table), ContextFor(ThroughProxy(proxy)));
        proxy.Stall();
        using var cancel = new CancellationTokenSource(TimeSpan.FromMilliseconds(300));

        var write = target.WriteAsync(Batch(documents), WriteOperation.Create, cancel.Token);

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => write);
        Assert.True(cancel.IsCancellationRequested);
        Assert.Equal(0, await azurite.CountEntitiesAsync(table));
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task RunAsync_CountsRequestsCutOffByTheStopAsAbandonedNotErrors_WhenTheyNeverReturn(bool cancelledByTheUser)
    {
        var table = NewTableName();
        await using var proxy = new StallingProxy(azurite.Port);
        using var userCancel = new CancellationTokenSource();
        var plan = new RunPlan
        {
            Name = "cut off",
            Target = TableStorage(table),
            Load = new LoadOptions { Concurrency = 4 },
            Stop = new StopOptions { DurationSeconds = cancelledByTheUser ? 60 : 2 },
        };

        // After the first second every request hangs: those out when the stop's grace period ends are cut off.
        var observer = new ActOnSecond(0, () =>
        {
            proxy.Stall();
            if (cancelledByTheUser)
            {
                userCancel.CancelAfter(TimeSpan.FromMilliseconds(500));
            }
        });
        var result = await new BenchmarkRunner().RunAsync(plan, ContextFor(ThroughProxy(proxy)), observer, userCancel.Token);

        Assert.Equal(cancelledByTheUser ? RunStatus.Cancelled : RunStatus.Completed, result.Status);
        Assert.Equal(4, result.AbandonedRequests);
        Assert.Equal(0, result.Summary.TotalErrors);
        Assert.Equal(0, result.Seconds.Sum(s => s.Errors));
        Assert.Null(result.FirstError);
        var ok = result.Seconds.Sum(s => s.Ok);
        Assert.True(ok > 0, "nothing landed before the stall");
        Assert.Equal(ok + result.Summary.TotalErrors, await azurite.CountEntitiesAsync(table));
    }

    [Fact]
    public async Task InitializeAsync_OpensAnExistingTable_WhenCreatingIsOff()
    {
        var table = NewTableName();
        await new TableClient(azurite.ConnectionString, table).CreateAsync();
        await using var target = await OpenAsync(TableStorage(table, createIfMissing: false), Context);

        var outcome = await target.WriteAsync([new Document("r", "pk", [])], WriteOperation.Create, CancellationToken.None);

        Assert.Equal(OutcomeKind.Ok, outcome.Kind);
        Assert.Equal(1, await azurite.CountEntitiesAsync(table));
    }

    [Fact]
    public async Task InitializeAsync_FailsNamingTheTable_WhenItIsMissingAndCreatingIsOff()
    {
        var table = NewTableName();
        await using var target = TargetRegistry.Create(TableStorage(table, createIfMissing: false), Context);

        var ex = await Assert.ThrowsAsync<TargetConfigurationException>(() => target.InitializeAsync(CancellationToken.None));

        Assert.Equal($"Table '{table}' does not exist and creating it is off.", ex.Message);
    }

    [Theory]
    [InlineData("SECRET-garbage")]
    [InlineData("AccountName=devstoreaccount1;AccountKey=SECRET")]
    [InlineData("DefaultEndpointsProtocol=http;AccountName=a;AccountKey=SECRET!!;TableEndpoint=http://127.0.0.1:1/a;")]
    [InlineData("AccountName=a;AccountKey=U0VDUkVU;TableEndpoint=not a uri SECRET")]
    public async Task InitializeAsync_FailsNamingTheSecretNotItsValue_WhenTheConnectionStringIsInvalid(string connectionString)
    {
        await using var target = TargetRegistry.Create(TableStorage(NewTableName()), ContextFor(connectionString));

        var ex = await Assert.ThrowsAsync<TargetConfigurationException>(() => target.InitializeAsync(CancellationToken.None));

        Assert.Equal("The secret 'TABLES_CONNECTION_STRING' is not a valid storage connection string.", ex.Message);
        Assert.Null(ex.InnerException);
    }

    [Fact]
    public async Task RunAsync_FailsWithoutShowingTheKey_WhenTheServerIsUnreachable()
    {
        var plan = new RunPlan
        {
            Target = TableStorage("unreachable", createIfMissing: false),
            Stop = new StopOptions { TotalDocuments = 5 },
        };
        var closedPort = azurite.ConnectionString.Replace($":{azurite.Port}/", ":9/", StringComparison.Ordinal);

        var result = await new BenchmarkRunner().RunAsync(plan, ContextFor(closedPort));

        Assert.Equal(RunStatus.Failed, result.Status);
        Assert.Contains("Cannot open table", result.FailureReason, StringComparison.Ordinal);
        Assert.DoesNotContain("Eby8vdM02x", result.FailureReason, StringComparison.Ordinal);
    }

    [Fact]
    public async Task RunAsync_CountsEveryBusyAnswerAsAThrottle_WhenItsBodyCannotBeRead()
    {
        // Every third insert is answered 503 with an empty JSON body, which Azure.Data.Tables reads as no details.
        var table = NewTableName();
        await using var proxy = await StorageFaultProxy.StartAsync(azurite, n => n % 3 == 0, 503, "application/json", "");
        var plan = new RunPlan
        {
            Target = TableStorage(table),
            Load = new LoadOptions { Concurrency = 1, Throttling = new ThrottleOptions { MaxRetries = 3, BaseDelayMs = 1 } },
            Stop = new StopOptions { TotalDocuments = 150 },
        };

        var result = await new BenchmarkRunner().RunAsync(plan, ContextFor(proxy.ConnectionString));

        // One at a time, each throttled insert's retry is the next write, never a third one: 150 entities take 224 writes.
        Assert.Equal(RunStatus.Completed, result.Status);
        Assert.Equal((224, 74, 150), (proxy.Writes, proxy.Faults, proxy.Passed));
        Assert.Equal((74L, 0L), (result.Summary.TotalThrottled, result.Summary.TotalErrors));
        Assert.Equal(150, result.Seconds.Sum(s => s.Ok));
        Assert.Equal(150, await azurite.CountEntitiesAsync(table));
    }

    [Theory]
    [InlineData(1, 150)]
    [InlineData(10, 300)]
    public async Task RunAsync_CountsACreateAsLanded_WhenItsRetryFindsWhatItsAnswered500AttemptLanded(int batchSize, int documents)
    {
        // Every third insert or transaction lands, then is answered 500 "operation timed out"; its retry gets 409
        // EntityAlreadyExists (a transaction's for its first entity: it landed whole).
        var table = NewTableName();
        const string Body = """{"odata.error":{"code":"OperationTimedOut","message":{"lang":"en-US","value":"Timed out."}}}""";
        await using var proxy = await StorageFaultProxy.StartAsync(azurite, n => n % 3 == 0, 500, "application/json", Body, "OperationTimedOut", landFirst: true);
        var plan = new RunPlan
        {
            Target = TableStorage(table),
            Workload = new WorkloadOptions { Shape = DocumentShape.Flight },
            Load = new LoadOptions { Concurrency = 1, BatchSize = batchSize, Throttling = new ThrottleOptions { MaxRetries = 3, BaseDelayMs = 1 } },
            Stop = new StopOptions { TotalDocuments = documents },
        };

        var result = await new BenchmarkRunner().RunAsync(plan, ContextFor(proxy.ConnectionString));

        // Each request answered 500 is retried once, as the next write, and its retry is answered 409: one ok request.
        Assert.Equal(RunStatus.Completed, result.Status);
        Assert.True(proxy.Faults >= 10, $"{proxy.Faults} writes answered 500");
        Assert.Equal(proxy.Writes, result.Summary.TotalOkRequests + proxy.Faults);
        Assert.Equal(((long)proxy.Faults, 0L), (result.Summary.TotalThrottled, result.Summary.TotalErrors));
        Assert.Equal(documents, result.Seconds.Sum(s => s.Ok));
        Assert.Equal(documents, await azurite.CountEntitiesAsync(table));
        Assert.True(result.Summary.AccountsBalance);
    }
}
