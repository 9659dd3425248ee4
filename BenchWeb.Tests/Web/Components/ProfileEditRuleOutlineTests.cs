using AngleSharp.Dom;
using BenchEngine.Running;
using BenchWeb.Components.Pages.Profiles;
using BenchWeb.Profiles;
using BenchWeb.Tests.Support;
using BenchWeb.Tests.Support.Components;
using Bunit;
using Microsoft.AspNetCore.Components.Web;
using Microsoft.Extensions.DependencyInjection;

namespace BenchWeb.Tests.Web.Components;

/// <summary>Every rule of every section of the profile editor, broken one at a time: exactly the input that edits the
/// setting is outlined (<c>aria-invalid</c>), and the rule's message shows beside it. A rule about several settings (say
/// when to stop; the stages together) shows its message and outlines no input.</summary>
[UnitTest]
public sealed class ProfileEditRuleOutlineTests
{
    /// <summary>One broken rule: how to break it from a new profile (or from a stored one), the input it outlines (null
    /// for a rule about several settings), where its message shows and a part of it.</summary>
    private sealed record BrokenRule(SettingDescriptor Setting, string Message, Func<IRenderedComponent<ProfileEdit>, Task> Break)
    {
        /// <summary>The stored profile the editor opens, for a rule whose input shows only when it applies (the agents).</summary>
        public ProfileDraft? Start { get; init; }

        /// <summary>The outlined input's id and the message's field, when not the setting's editor path (a stage's row).</summary>
        public string? At { get; init; }

        public bool ManySettings { get; init; }
    }

    private static Func<IRenderedComponent<ProfileEdit>, Task> Set(params (string Id, object Value)[] changes) => async page =>
    {
        foreach (var (id, value) in changes)
        {
            if (id.StartsWith('#'))
            {
                await page.Find(id).ClickAsync(new MouseEventArgs());
            }
            else
            {
                await page.Find(Id(id)).ChangeAsync(value);
            }
        }
    };

    private const string AddStage = "#add-stage";
    private const string OpenLoop = nameof(LoadModel.OpenLoop);

    private static readonly Dictionary<string, BrokenRule> Rules = new(StringComparer.Ordinal)
    {
        ["Name: empty"] = new(PlanSettingsCatalog.Name, "a name", Set(("Name", ""))),
        ["Name: too long"] = new(PlanSettingsCatalog.Name, "At most 200 characters.", Set(("Name", new string('x', 201)))),
        ["Name: control character"] = new(PlanSettingsCatalog.Name, "control character", Set(("Name", "a\u0007b"))),
        ["Template: required"] = new(PlanSettingsCatalog.Template, "A JSON template is required", Set(("Workload.Shape", nameof(BenchEngine.Workloads.DocumentShape.JsonTemplate)))),
        ["Template: not a template"] = new(PlanSettingsCatalog.Template, "", Set(("Workload.Shape", nameof(BenchEngine.Workloads.DocumentShape.JsonTemplate)), ("Workload.Template", "{\"id\": {{nope}}"))),
        ["Document size: not positive"] = new(PlanSettingsCatalog.TargetSizeBytes, "positive number of bytes", Set(("Workload.TargetSizeBytes", "0"))),
        ["Document size: beyond an item"] = new(PlanSettingsCatalog.TargetSizeBytes, "at most 2,000,000 bytes", Set(("Workload.TargetSizeBytes", "3000000"))),
        ["CSV file: none chosen"] = new(PlanSettingsCatalog.CsvFileId, WebPlanRulesChoose, Set(("Workload.Shape", nameof(BenchEngine.Workloads.DocumentShape.CsvFile)))),
        ["Key field: empty"] = new(PlanSettingsCatalog.PartitionKeyField, "needs the name of a field", Set(("Workload.PartitionKey.Strategy", "FieldValue"))),
        ["Key field: the key itself"] = new(PlanSettingsCatalog.PartitionKeyField, "holds the chosen key itself", Set(("Workload.PartitionKey.Strategy", "FieldValue"), ("Workload.PartitionKey.Field", "PartitionKey"))),
        ["Key field: no such field"] = new(PlanSettingsCatalog.PartitionKeyField, "have no field", Set(("Workload.PartitionKey.Strategy", "FieldValue"), ("Workload.PartitionKey.Field", "Nowhere"))),
        ["Key count: none"] = new(PlanSettingsCatalog.PartitionKeyCount, "at least 1 key", Set(("Workload.PartitionKey.Strategy", "FixedKeys"), ("Workload.PartitionKey.KeyCount", "0"))),
        ["Key count: one hot key alone"] = new(PlanSettingsCatalog.PartitionKeyCount, "at least 2 keys", Set(("Workload.PartitionKey.Strategy", "HotKey"), ("Workload.PartitionKey.KeyCount", "1"))),
        ["Key count: too many"] = new(PlanSettingsCatalog.PartitionKeyCount, "keys.", Set(("Workload.PartitionKey.Strategy", "FixedKeys"), ("Workload.PartitionKey.KeyCount", "2000000000"))),
        ["Hot key share: above 1"] = new(PlanSettingsCatalog.HotKeyFraction, "between 0 and 1", Set(("Workload.PartitionKey.Strategy", "HotKey"), ("Workload.PartitionKey.HotKeyFraction", "2"))),
        ["Concurrency: none"] = new(PlanSettingsCatalog.Concurrency, "Must be at least 1.", Set(("Load.Concurrency", "0"))),
        ["Concurrency: too many"] = new(PlanSettingsCatalog.Concurrency, "At most 10,000", Set(("Load.Concurrency", "10001"))),
        ["Batch size: none"] = new(PlanSettingsCatalog.BatchSize, "Must be at least 1", Set(("Load.BatchSize", "0"))),
        ["Batch size: beyond the target's"] = new(PlanSettingsCatalog.BatchSize, "", Set(("Workload.PartitionKey.Strategy", "FixedKeys"), ("Load.BatchSize", "1000"))),
        ["Batch size: keys not shared"] = new(PlanSettingsCatalog.BatchSize, "share a partition key", Set(("Load.BatchSize", "2"))),
        ["Rate: open loop without one"] = new(PlanSettingsCatalog.RatePerSecond, "needs a rate above 0", Set(("Load.Model", OpenLoop))),
        ["Rate: too slow"] = new(PlanSettingsCatalog.RatePerSecond, "At least 0.1 requests per second", Set(("Load.Model", OpenLoop), ("Load.RatePerSecond", "0.01"))),
        ["Rate: too fast"] = new(PlanSettingsCatalog.RatePerSecond, "At most 1,000,000", Set(("Load.Model", OpenLoop), ("Load.RatePerSecond", "2000000"))),
        ["Rate: closed loop"] = new(PlanSettingsCatalog.RatePerSecond, "applies to the open loop only",
            Set(("Load.Model", OpenLoop), ("Load.RatePerSecond", "100"), ("Load.Model", nameof(LoadModel.ClosedLoop)))),
        ["Agents: too many"] = new(PlanSettingsCatalog.Agents, "Between 1 and 64", Set(("Load.Agents", "65"))) { Start = Spread() },
        ["Agents: fewer workers"] = new(PlanSettingsCatalog.Agents, "at least one worker", Set(("Load.Agents", "20"))) { Start = Spread() },
        ["Agents: unbounded"] = new(PlanSettingsCatalog.Agents, "unbounded model", Set(("Stop.TotalDocuments", "1000"), ("Load.Model", nameof(LoadModel.Unbounded)))) { Start = Spread() },
        ["Stages: unbounded"] = new(PlanSettingsCatalog.Stages, "no level to change",
            Set(("Stop.TotalDocuments", "1000"), (AddStage, true), ("Load.Model", nameof(LoadModel.Unbounded))))
        { ManySettings = true },
        ["Stages: several agents"] = new(PlanSettingsCatalog.Stages, "Stages run on one agent", Set((AddStage, true))) { Start = Spread(), ManySettings = true },
        ["Stages: longer than a week"] = new(PlanSettingsCatalog.Stages, "together last at most",
            Set((AddStage, true), (AddStage, true), ("Load.Stages[0].DurationSeconds", "604800"), ("Load.Stages[1].DurationSeconds", "604800"))) { ManySettings = true },
        ["Stage seconds: none"] = new(PlanSettingsCatalog.StageDurationSeconds, "Whole seconds", Set((AddStage, true), ("Load.Stages[0].DurationSeconds", "0"))) { At = "Load.Stages[0].DurationSeconds" },
        ["Stage workers: none"] = new(PlanSettingsCatalog.StageConcurrency, "Must be at least 1.", Set((AddStage, true), ("Load.Stages[0].Concurrency", "0"))) { At = "Load.Stages[0].Concurrency" },
        ["Stage workers: too many"] = new(PlanSettingsCatalog.StageConcurrency, "At most 10,000", Set((AddStage, true), (AddStage, true), ("Load.Stages[1].Concurrency", "10001"))) { At = "Load.Stages[1].Concurrency" },
        ["Stage rate: none"] = new(PlanSettingsCatalog.StageRatePerSecond, "needs a rate above 0",
            Set(("Load.Model", OpenLoop), ("Load.RatePerSecond", "100"), (AddStage, true), ("Load.Stages[0].RatePerSecond", ""))) { At = "Load.Stages[0].RatePerSecond" },
        ["Stage rate: too slow"] = new(PlanSettingsCatalog.StageRatePerSecond, "Between 0.1 and 1,000,000",
            Set(("Load.Model", OpenLoop), ("Load.RatePerSecond", "100"), (AddStage, true), ("Load.Stages[0].RatePerSecond", "0.01"))) { At = "Load.Stages[0].RatePerSecond" },
        ["Retries: too many"] = new(PlanSettingsCatalog.MaxRetries, "Between 0 and 100.", Set(("Load.Throttling.MaxRetries", "101"))),
        ["Back-off: none"] = new(PlanSettingsCatalog.BaseDelayMs, "Above 0 and at most 60,000 ms.", Set(("Load.Throttling.BaseDelayMs", "0"))),
        ["Total documents: none"] = new(PlanSettingsCatalog.TotalDocuments, "Must be at least 1.", Set(("Stop.TotalDocuments", "0"))),
        ["Total documents: too many"] = new(PlanSettingsCatalog.TotalDocuments, "At most 1,000,000,000,000 documents.", Set(("Stop.TotalDocuments", "2000000000000"))),
        ["Total documents: unbounded without"] = new(PlanSettingsCatalog.TotalDocuments, "give a total of at most 1,000,000", Set(("Load.Model", nameof(LoadModel.Unbounded)))),
        ["Per worker: none"] = new(PlanSettingsCatalog.DocumentsPerWorker, "Must be at least 1.", Set(("Stop.DocumentsPerWorker", "0"))),
        ["Per worker: too many in all"] = new(PlanSettingsCatalog.DocumentsPerWorker, "Workers × documents per worker", Set(("Stop.DocumentsPerWorker", "200000000000"))),
        ["Per worker: open loop"] = new(PlanSettingsCatalog.DocumentsPerWorker, "applies to the closed loop",
            Set(("Load.Model", OpenLoop), ("Load.RatePerSecond", "100"), ("Stop.DocumentsPerWorker", "10"))),
        ["Per worker: and a total"] = new(PlanSettingsCatalog.DocumentsPerWorker, "not both", Set(("Stop.TotalDocuments", "10"), ("Stop.DocumentsPerWorker", "10"))),
        ["Per worker: with stages"] = new(PlanSettingsCatalog.DocumentsPerWorker, "give a total instead", Set((AddStage, true), ("Stop.DocumentsPerWorker", "10"))),
        ["Duration: none"] = new(PlanSettingsCatalog.DurationSeconds, "Above 0 and at most 604,800 seconds", Set(("Stop.DurationSeconds", "0"))),
        ["Stop: nothing says when"] = new(PlanSettingsCatalog.Stop, "Say when to stop", Set(("Stop.DurationSeconds", ""))) { ManySettings = true },
        ["Auto-stop: no share"] = new(PlanSettingsCatalog.AutoStop, "or remove the rule", Set(("Stop.AutoStop", true))),
        ["Auto-stop throttled: above all"] = new(PlanSettingsCatalog.AutoStopThrottled, "A share between 0 and 1", Set(("Stop.AutoStop", true), ("Stop.AutoStop.ThrottledPercent", "200"))),
        ["Auto-stop errors: above all"] = new(PlanSettingsCatalog.AutoStopErrors, "A share between 0 and 1", Set(("Stop.AutoStop", true), ("Stop.AutoStop.ErrorPercent", "200"))),
        ["Auto-stop unsent: above all"] = new(PlanSettingsCatalog.AutoStopDropped, "A share between 0 and 1",
            Set(("Load.Model", OpenLoop), ("Load.RatePerSecond", "100"), ("Stop.AutoStop", true), ("Stop.AutoStop.DroppedPercent", "200"))),
        ["Auto-stop unsent: closed loop"] = new(PlanSettingsCatalog.AutoStopDropped, "only in the open loop",
            Set(("Load.Model", OpenLoop), ("Stop.AutoStop", true), ("Stop.AutoStop.DroppedPercent", "5"), ("Load.Model", nameof(LoadModel.ClosedLoop)))),
        ["Auto-stop window: none"] = new(PlanSettingsCatalog.AutoStopWindowSeconds, "Between 1 and 3,600 seconds.",
            Set(("Stop.AutoStop", true), ("Stop.AutoStop.ErrorPercent", "5"), ("Stop.AutoStop.WindowSeconds", "0"))),
        ["Throughput: none"] = new(PlanSettingsCatalog.MinThroughput, "Must be above 0 inserts/s", Set(("Thresholds.MinThroughput", "0"))),
        ["P99: none"] = new(PlanSettingsCatalog.MaxP99LatencyMs, "Must be above 0 ms", Set(("Thresholds.MaxP99LatencyMs", "0"))),
        ["Throttled: above all"] = new(PlanSettingsCatalog.MaxThrottledPercent, "A percentage between 0 and 100.", Set(("Thresholds.MaxThrottledPercent", "101"))),
        ["Unsent: above all"] = new(PlanSettingsCatalog.MaxDroppedPercent, "A percentage between 0 and 100.",
            Set(("Load.Model", OpenLoop), ("Load.RatePerSecond", "100"), ("Thresholds.MaxDroppedPercent", "101"))),
        ["Unsent: closed loop"] = new(PlanSettingsCatalog.MaxDroppedPercent, "only in the open loop",
            Set(("Load.Model", OpenLoop), ("Thresholds.MaxDroppedPercent", "5"), ("Load.Model", nameof(LoadModel.ClosedLoop)))),
        ["Baseline: not a run"] = new(PlanSettingsCatalog.BaselineRunId, "Not a run number.", Set(("Thresholds.BaselineRunId", "0"))),
        ["Share of the baseline: none"] = new(PlanSettingsCatalog.MinShareOfBaseline, "A share above 0", Set(("Thresholds.MinPercentOfBaseline", "0"))),
        ["Diagnostics threshold: negative"] = new(PlanSettingsCatalog.DiagnosticsThresholdMs, "From 0 to 3,600,000 ms", Set(("Diagnostics.ThresholdMs", "-1"))),
        ["Slowest per second: negative"] = new(PlanSettingsCatalog.DiagnosticsSlowestPerSecond, "From 0 (none)", Set(("Diagnostics.SlowestPerSecond", "-1"))),
    };

    private const string WebPlanRulesChoose = "Choose an uploaded CSV file";

    /// <summary>The plan's settings whose every rule the editor cannot break: a choice from a list (an enum's value that
    /// names no choice comes only from a file), a setting it has no input for, or one with no rule.</summary>
    private static readonly HashSet<SettingDescriptor> Unbreakable = new(ReferenceEqualityComparer.Instance)
    {
        PlanSettingsCatalog.TargetKind, PlanSettingsCatalog.Operation, PlanSettingsCatalog.Shape, PlanSettingsCatalog.PartitionKeyStrategy,
        PlanSettingsCatalog.LoadModel, PlanSettingsCatalog.StageRamp,
        // Profiles saved before uploads; the form offers to remove the path, and the shard is set by a shared run alone.
        PlanSettingsCatalog.CsvPath, PlanSettingsCatalog.Shard,
        PlanSettingsCatalog.Seed, PlanSettingsCatalog.SharedBackoff,
    };

    public static TheoryData<string> RuleNames() => [.. Rules.Keys];

    [Fact]
    public void Rules_CoverEverySettingOfThePlan_ThatTheEditorCanBreak()
    {
        var covered = Rules.Values.Select(r => r.Setting).ToHashSet(ReferenceEqualityComparer.Instance);
        var missing = PlanSettingsCatalog.Plan.Where(s => !covered.Contains(s) && !Unbreakable.Contains(s)).Select(s => s.Path).ToList();

        Assert.Empty(missing);
    }

    [Theory]
    [MemberData(nameof(RuleNames))]
    public async Task Form_BrokenRule_OutlinesExactlyItsInput_AndShowsItsMessageBesideIt(string rule)
    {
        var broken = Rules[rule];
        await using var context = new BenchWebComponentContext();
        long? id = broken.Start is { } start
            ? await context.Services.GetRequiredService<ProfileService>().SaveAsync(0, start, TestActors.Runner, CancellationToken.None)
            : null;
        context.StartAt(id is null ? "profiles/new" : $"profiles/{id}");
        var page = id is { } saved ? context.Render<ProfileEdit>(parameters => parameters.Add(p => p.Id, saved)) : context.Render<ProfileEdit>();
        page.WaitForElement("#save-profile");

        await broken.Break(page);

        var at = broken.At ?? broken.Setting.EditorPath;
        var outlined = page.FindAll("[aria-invalid='true']").Select(e => e.Id!).ToArray();
        var messages = page.FindAll($".validation-message[data-field='{at}']").ToList();
        Assert.Contains(messages, m => m.TextContent.Contains(broken.Message, StringComparison.Ordinal));
        if (broken.ManySettings)
        {
            Assert.Empty(outlined);
            return;
        }

        Assert.Equal([at], outlined);
        // Beside it: in the same field as the input.
        var field = page.Find(Id(at)).Closest(".field");
        Assert.NotNull(field);
        Assert.All(messages, m => Assert.Same(field, m.Closest(".field")));
    }

    [Fact]
    public async Task Form_DescriptionTooLong_OutlinesTheDescription_AndShowsItsMessageBesideIt()
    {
        await using var context = new BenchWebComponentContext();
        context.StartAt("profiles/new");
        var page = context.Render<ProfileEdit>();
        page.WaitForElement("#save-profile");

        await page.Find(Id(ProfileDraft.DescriptionField)).ChangeAsync(new string('x', ProfileDraft.MaxDescriptionLength + 1));

        Assert.Equal([ProfileDraft.DescriptionField], page.FindAll("[aria-invalid='true']").Select(e => e.Id!).ToArray());
        var message = page.Find($".validation-message[data-field='{ProfileDraft.DescriptionField}']");
        Assert.Contains("At most 2,000 characters.", message.TextContent, StringComparison.Ordinal);
        Assert.Same(page.Find(Id(ProfileDraft.DescriptionField)).Closest(".field"), message.Closest(".field"));
    }

    // A profile spread over two agents, so that the editor shows its agents (outside shared mode it shows them only then).
    private static ProfileDraft Spread() => new(new RunPlan { Name = "Spread", Load = new LoadOptions { Agents = 2 } });

    private static string Id(string id) => $"[id=\"{id}\"]";
}
