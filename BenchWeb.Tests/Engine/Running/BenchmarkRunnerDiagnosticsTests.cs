using BenchEngine.Diagnostics;
using BenchEngine.Metrics;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;
using BenchWeb.Tests.Support;
using Microsoft.Extensions.Time.Testing;

namespace BenchWeb.Tests.Engine.Running;

/// <summary>The slowest requests' diagnostics through a whole run, on a stepped fake clock: the bounds a second and a run keep,
/// texts cut at their bound, no secret of the run in them, and an observer that fails to keep them stopping nothing.</summary>
[UnitTest]
public class BenchmarkRunnerDiagnosticsTests
{
    private const string SecretName = "TARGET_KEY";
    private const string SecretValue = "benchweb-secret-marker-0123456789";

    private static Task<RunResult> RunSteppedAsync(RunPlan plan, Func<TargetContext, TimeProvider, IInsertTarget> target, IRunObserver? observer = null)
    {
        var time = SteppedClock.Create();
        var runner = new BenchmarkRunner(time, (options, context) => target(context, time));
        var context = new TargetContext(TimeProvider.System, name => name == SecretName ? SecretValue : null);
        return SteppedClock.RunAsync(time, () => runner.RunAsync(plan, context, observer), TimeSpan.FromMinutes(2));
    }

    private static RunPlan Plan(double seconds, DiagnosticsOptions? diagnostics) => new()
    {
        Name = "diagnostics",
        Load = new LoadOptions { Concurrency = 2 },
        Stop = new StopOptions { DurationSeconds = seconds },
        Diagnostics = diagnostics,
    };

    [Fact]
    public async Task RunAsync_KeepsAtMostTenASecondAnd200ARun_WhenEveryRequestIsOverTheThreshold()
    {
        var plan = Plan(25, new DiagnosticsOptions { ThresholdMs = 0 });

        var result = await RunSteppedAsync(plan, (context, time) => new DescribedTarget(context, time, TimeSpan.FromMilliseconds(20), textLength: 100));

        Assert.Equal(RunStatus.Completed, result.Status);
        Assert.Equal(DiagnosticsOptions.MaxEntries, result.SlowRequests.Count);
        Assert.All(result.SlowRequests.GroupBy(r => r.Second), second => Assert.InRange(second.Count(), 1, DiagnosticsOptions.MaxPerSecond));
        Assert.Equal(result.Seconds.Sum(s => Math.Min(DiagnosticsOptions.MaxPerSecond, s.OkRequests)) - DiagnosticsOptions.MaxEntries, result.SlowRequestsNotKept);
        Assert.All(result.SlowRequests, r => Assert.Equal("DescribedTarget", r.Target));
        Assert.Equal(result.SlowRequests.OrderBy(r => r.Second).Select(r => r.Second), result.SlowRequests.Select(r => r.Second));
    }

    [Fact]
    public async Task RunAsync_CutsEachTextAt64KB_KeepsAtMost5MB_AndNoSecretOfTheRun()
    {
        var plan = Plan(10, new DiagnosticsOptions { ThresholdMs = 0 });

        var result = await RunSteppedAsync(plan, (context, time) => new DescribedTarget(context, time, TimeSpan.FromMilliseconds(20), textLength: 100_000));

        Assert.NotEmpty(result.SlowRequests);
        Assert.All(result.SlowRequests, r =>
        {
            Assert.True(r.Truncated);
            Assert.Equal(DiagnosticsOptions.MaxTextLength, r.Text.Length);
            Assert.Contains("[truncated: the text was", r.Text, StringComparison.Ordinal);
            Assert.DoesNotContain(SecretValue, r.Text + r.Summary, StringComparison.Ordinal);
            Assert.Contains("key [redacted]", r.Summary, StringComparison.Ordinal);
        });
        Assert.InRange(result.SlowRequests.Sum(r => (long)r.Text.Length + r.Summary.Length), 1, DiagnosticsOptions.MaxTotalLength);
        Assert.Equal(DiagnosticsOptions.MaxTotalLength / (DiagnosticsOptions.MaxTextLength + result.SlowRequests[0].Summary.Length), result.SlowRequests.Count);
    }

    [Fact]
    public async Task RunAsync_KeepsEachSecondsSlowestRequest_ByDefault()
    {
        var plan = Plan(5, null) with { Target = new TargetOptions { Simulator = new SimulatorOptions { ProvisionedRequestUnits = 100_000 } } };
        var time = SteppedClock.Create();
        var runner = new BenchmarkRunner(time);

        var result = await SteppedClock.RunAsync(time, () => runner.RunAsync(plan, new TargetContext(TimeProvider.System, _ => null)), TimeSpan.FromMinutes(2));

        Assert.Equal(result.Seconds.Where(s => s.OkRequests > 0).Select(s => s.Index), result.SlowRequests.Select(r => r.Second));
        Assert.All(result.SlowRequests, r =>
        {
            var max = result.Seconds[r.Second].LatencyMaxMs!.Value;
            Assert.Equal(max, r.LatencyMs, tolerance: max * 0.01);
            Assert.Contains("Simulated: a model of Cosmos DB in this process, no request was sent", r.Text, StringComparison.Ordinal);
        });
    }

    [Fact]
    public async Task RunAsync_DescribesNothing_WhenDiagnosticsAreOff()
    {
        DescribedTarget? target = null;
        var plan = Plan(3, new DiagnosticsOptions { SlowestPerSecond = 0 });

        var result = await RunSteppedAsync(plan, (context, time) => target = new DescribedTarget(context, time, TimeSpan.FromMilliseconds(20), textLength: 10));

        Assert.Equal(RunStatus.Completed, result.Status);
        Assert.Empty(result.SlowRequests);
        Assert.Equal(0, target!.Described);
    }

    [Fact]
    public async Task RunAsync_GoesOnAndKeepsEverySecond_WhenTheObserverFailsToKeepDiagnostics()
    {
        var observer = new FailingDiagnosticsObserver();
        var plan = Plan(4, new DiagnosticsOptions { ThresholdMs = 0 });

        var result = await RunSteppedAsync(plan, (context, time) => new DescribedTarget(context, time, TimeSpan.FromMilliseconds(20), textLength: 10), observer);

        Assert.Equal(RunStatus.Completed, result.Status);
        Assert.Null(result.FailureReason);
        Assert.Equal(result.Seconds.Select(s => s.Index), observer.Seconds);
        Assert.True(observer.Changes > 1, "the observer was asked once only: a failure stopped the deliveries");
        Assert.NotEmpty(result.SlowRequests);
    }

    [Theory]
    [InlineData(-1.0, 1, "Diagnostics.ThresholdMs")]
    [InlineData(double.NaN, 1, "Diagnostics.ThresholdMs")]
    [InlineData(3_600_001.0, 1, "Diagnostics.ThresholdMs")]
    [InlineData(100.0, -1, "Diagnostics.SlowestPerSecond")]
    [InlineData(100.0, 11, "Diagnostics.SlowestPerSecond")]
    public void Validate_RefusesSettingsOutOfRange_NamingTheField(double thresholdMs, int slowest, string field)
    {
        var plan = Plan(5, new DiagnosticsOptions { ThresholdMs = thresholdMs, SlowestPerSecond = slowest });

        Assert.Contains(plan.Validate(), e => e.Field == field);
    }

    [Fact]
    public void FromJson_ReadsTheDiagnosticsSection_AndAPlanWithoutOneGetsTheDefault()
    {
        var plan = RunPlan.FromJson("""{ "name": "d", "stop": { "durationSeconds": 5 }, "diagnostics": { "thresholdMs": 150, "slowestPerSecond": 0 } }""");
        var without = RunPlan.FromJson("""{ "name": "d", "stop": { "durationSeconds": 5 } }""");

        Assert.Equal(new DiagnosticsOptions { ThresholdMs = 150, SlowestPerSecond = 0 }, plan.EffectiveDiagnostics);
        Assert.Empty(plan.Validate());
        Assert.Same(DiagnosticsOptions.Default, without.EffectiveDiagnostics);
        Assert.DoesNotContain("diagnostics", without.ToJson(), StringComparison.Ordinal);
    }

    /// <summary>Answers each write after <c>latency</c> of the run's clock, and describes a request with a text of the given
    /// length that quotes the secret it read.</summary>
    private sealed class DescribedTarget(TargetContext context, TimeProvider time, TimeSpan latency, int textLength) : IInsertTarget
    {
        private string _secret = "";
        private int _described;

        public int Described => Volatile.Read(ref _described);

        public string Description => nameof(DescribedTarget);

        public bool IsModel => true;

        public double? ProvisionedRequestUnits => null;

        public Task InitializeAsync(CancellationToken cancellationToken)
        {
            _secret = context.RequireSecret(SecretName);
            return Task.CompletedTask;
        }

        public async Task<OperationOutcome> WriteAsync(IReadOnlyList<Document> documents, WriteOperation operation, CancellationToken cancellationToken)
        {
            await Task.Delay(latency, time, cancellationToken);
            return OperationOutcome.Ok(201, documents.Count, 1, 1) with { Diagnostics = documents };
        }

        public RequestDescription DescribeRequest(in SlowRequestFacts request)
        {
            Interlocked.Increment(ref _described);
            var text = $"key {_secret} for {((IReadOnlyList<Document>)request.Outcome.Diagnostics!)[0].Id}\n";
            return new RequestDescription($"{request.OutcomeText} · key {_secret}", text + new string('d', Math.Max(0, textLength - text.Length)));
        }

        public Task<long> CountAsync(CancellationToken cancellationToken) => Task.FromResult(0L);

        public ValueTask DisposeAsync() => ValueTask.CompletedTask;
    }

    private sealed class FailingDiagnosticsObserver : IRunObserver
    {
        public List<int> Seconds { get; } = [];

        public int Changes { get; private set; }

        public ValueTask OnStartedAsync(RunStart start, CancellationToken cancellationToken) => ValueTask.CompletedTask;

        public ValueTask OnSecondAsync(SecondSnapshot second, CancellationToken cancellationToken)
        {
            Seconds.Add(second.Index);
            return ValueTask.CompletedTask;
        }

        public ValueTask OnSlowRequestsAsync(SlowRequestChange change, CancellationToken cancellationToken)
        {
            Changes++;
            throw new InvalidOperationException("The database is gone.");
        }
    }
}
