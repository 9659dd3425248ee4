using System.Reflection;
using System.Text.Json;
using System.Text.RegularExpressions;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Engine.Targets;

/// <summary>Every target is a module: its fields, rules and messages stay in its own section, and the rest of the code
/// asks the registry rather than switching on a kind.</summary>
[UnitTest]
public sealed class TargetRegistryTests
{
    public static TheoryData<string> Kinds() => [.. TargetRegistry.All.Select(m => m.Kind.Name)];

    [Fact]
    public void Registry_NamesEachKindOnce_InWordsAndWithinTheStoredLength()
    {
        var names = TargetRegistry.All.Select(m => m.Kind.Name).ToList();

        Assert.Equal(names.Count, names.Distinct(StringComparer.Ordinal).Count());
        Assert.Equal(names.Count, TargetRegistry.All.Select(m => m.DisplayName).Distinct(StringComparer.Ordinal).Count());
        Assert.All(names, name => Assert.InRange(name.Length, 1, TargetKind.MaxNameLength));
        Assert.All(TargetRegistry.All, m => Assert.NotEqual(m.Kind.Name, m.DisplayName));
        Assert.Same(TargetRegistry.All[0], TargetRegistry.Default.Module);
    }

    [Theory]
    [MemberData(nameof(Kinds))]
    public void Module_FieldsAreSettingsOfItsOwnSection_OncePerPath(string kindName)
    {
        var module = new TargetKind(kindName).Module;
        var paths = module.Fields.Select(f => f.Path).ToList();
        Assert.Equal(paths.Count, paths.Distinct(StringComparer.Ordinal).Count());
        if (module.Section is not { } section)
        {
            Assert.Empty(module.Fields);
            return;
        }

        // The section is a property of TargetOptions that the module's folder adds, and each field one of its properties.
        var sectionType = typeof(TargetOptions).GetProperty(section)?.PropertyType;
        Assert.NotNull(sectionType);
        foreach (var field in module.Fields)
        {
            Assert.StartsWith($"Target.{section}.", field.Path, StringComparison.Ordinal);
            var property = sectionType.GetProperty(field.Path[$"Target.{section}.".Length..], BindingFlags.Public | BindingFlags.Instance);
            Assert.True(property is not null, $"{field.Path} is not a setting of {sectionType.Name}.");
            Assert.False(string.IsNullOrWhiteSpace(field.Label));
            Assert.True(field.Input != TargetInput.Choice || field.Choices.Count > 0, $"{field.Path} offers no choices.");
            Assert.True(field.Input != TargetInput.Secret || field.SecretPurpose is { Length: > 0 }, $"{field.Path} says not what it stores.");
        }
    }

    [Theory]
    [MemberData(nameof(Kinds))]
    public void Module_RulesNameItsOwnFields_SoTheEditorShowsEachMessageBesideItsInput(string kindName)
    {
        var module = new TargetKind(kindName).Module;
        // Every setting of the section blanked or out of range: whatever the rules refuse must be one of the module's fields.
        var blank = module.Fields.Where(f => f.Input is TargetInput.Text or TargetInput.Secret)
            .Aggregate(new TargetOptions { Kind = module.Kind }, (options, f) => f.With(options, ""));
        var errors = new RunPlan { Target = blank }.Validate().Where(e => e.Field.StartsWith("Target.", StringComparison.Ordinal)).ToList();

        Assert.All(errors, e => Assert.True(module.FieldAt(e.Field) is not null, $"{kindName}: {e.Field} ({e.Message}) is not one of its fields."));
        Assert.Equal(module.Fields.Any(f => f.Input == TargetInput.Secret), errors.Exists(e => module.FieldAt(e.Field)?.Input == TargetInput.Secret));
    }

    [Theory]
    [MemberData(nameof(Kinds))]
    public void Module_DescribesItsPlan_InItsOwnWords(string kindName)
    {
        var module = new TargetKind(kindName).Module;

        var description = module.Describe(new TargetOptions { Kind = module.Kind });

        Assert.StartsWith(module.DisplayName, description, StringComparison.Ordinal);
    }

    [Fact]
    public void SettingsOfAKindThePlanDoesNotUse_AreStillBounded()
    {
        var plan = RunPlan.FromJson($$"""{ "name": "n", "target": { "kind": "Simulated", "redis": { "host": "{{new string('h', 100_000)}}" } }, "stop": { "durationSeconds": 5 } }""");

        var error = Assert.Single(plan.Validate());

        Assert.Equal("Target.Redis.Host", error.Field);
        Assert.Equal("At most 2,048 characters or items.", error.Message);
    }

    [Fact]
    public void UnknownKind_IsRefusedNamingTheKindsThereAre_AndOpensNothing()
    {
        var plan = RunPlan.FromJson("""{ "name": "x", "target": { "kind": "Mainframe" }, "stop": { "durationSeconds": 5 } }""");

        var error = Assert.Single(plan.Validate());
        Assert.Equal("Target.Kind", error.Field);
        Assert.Equal($"Not one of {TargetRegistry.Names}.", error.Message);
        Assert.Equal("Unknown target", plan.Target.Kind.DisplayName());
        var refused = Assert.Throws<TargetConfigurationException>(() => TargetRegistry.Create(plan.Target, TargetContext.FromEnvironment()));
        Assert.Contains("Mainframe", refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Kind_IsWrittenAndReadAsItsName_AndANumberIsNoKind()
    {
        var json = JsonSerializer.Serialize(new TargetOptions { Kind = TargetKind.TableStorage }, RunPlan.JsonOptions);
        Assert.Contains("\"kind\": \"TableStorage\"", json, StringComparison.Ordinal);
        Assert.Equal(TargetKind.TableStorage, JsonSerializer.Deserialize<TargetOptions>(json, RunPlan.JsonOptions)!.Kind);

        // Plans written by hand spell a kind in any case, as the enum it replaced read them.
        Assert.Equal(TargetKind.CosmosSql, RunPlan.FromJson("""{ "target": { "kind": "cosmossql" } }""").Target.Kind);

        var number = Assert.Throws<RunPlanValidationException>(() => RunPlan.FromJson("""{ "target": { "kind": 3 } }"""));
        Assert.Contains("a name in quotes", Assert.Single(number.Errors).Message, StringComparison.Ordinal);
        Assert.Equal(TargetKind.Simulated, default);
    }

    [Fact]
    public void Settings_AreReadAndChangedByFieldPath_WithoutKnowingTheOptionsType()
    {
        var options = new TargetOptions { Kind = TargetKind.CosmosSql };

        var changed = TargetSettings.Field("Target.Tables.TableName")!.With(TargetSettings.Field("Target.Cosmos.KeySecret")!.With(options, "BENCHWEB_KEY"), "flights");

        Assert.Equal("BENCHWEB_KEY", changed.Cosmos.KeySecret);
        Assert.Equal("flights", changed.Tables.TableName);
        Assert.Equal("BENCHWEB_KEY", TargetSettings.Text(changed, "Target.Cosmos.KeySecret"));
        Assert.Null(TargetSettings.Text(changed, "Target.Cosmos.Nothing"));
        Assert.Null(TargetSettings.Field("Target.Cosmos.RequestUnits")!.With(changed, null).Cosmos.RequestUnits);
        Assert.Throws<ArgumentException>(() => TargetSettings.Field("Target.Cosmos.KeySecret")!.With(changed, null));
    }

    /// <summary>The rest of the code asks a kind's module; only the target's own folder may compare kinds. Seed presets name
    /// the kind they were measured on (data, not a switch).</summary>
    [Fact]
    public void SourceTree_OutsideATargetsFolder_NothingSwitchesOnAKind()
    {
        var root = RepositoryRoot();
        var kinds = string.Join('|', TargetRegistry.All.Select(m => m.Kind.Name));
        var comparison = new Regex($@"(==|!=|\bis\b|\bcase\b|\bor\b|\band\b)\s*(not\s+)?\(?\s*(BenchEngine\.Targets\.)?TargetKind\.({kinds})\b|TargetKind\.({kinds})\s*(=>|or\b|\))\s*=>|""({kinds})""\s*(=>|or\b)", RegexOptions.None, TimeSpan.FromSeconds(5));
        var sections = TargetRegistry.All.Where(m => m.Section is not null).Select(m => m.Section!).Distinct().ToList();
        var sectionUse = new Regex($@"\.Target\.({string.Join('|', sections)})\b", RegexOptions.None, TimeSpan.FromSeconds(5));
        var offenders = new List<string>();
        foreach (var project in new[] { "BenchEngine", "BenchWeb" })
        {
            foreach (var file in Directory.EnumerateFiles(Path.Combine(root, project), "*.*", SearchOption.AllDirectories)
                .Where(f => f.EndsWith(".cs", StringComparison.Ordinal) || f.EndsWith(".razor", StringComparison.Ordinal)))
            {
                var relative = Path.GetRelativePath(root, file).Replace('\\', '/');
                if (relative.Contains("/obj/", StringComparison.Ordinal) || relative.Contains("/bin/", StringComparison.Ordinal)
                    || relative.Contains("/Migrations/", StringComparison.Ordinal) || InATargetsFolder(relative))
                {
                    continue;
                }

                var lines = File.ReadAllLines(file);
                for (var i = 0; i < lines.Length; i++)
                {
                    if (comparison.IsMatch(lines[i]) || (sectionUse.IsMatch(lines[i]) && !relative.EndsWith("Presets/SeedPresets.cs", StringComparison.Ordinal)))
                    {
                        offenders.Add($"{relative}:{i + 1}: {lines[i].Trim()}");
                    }
                }
            }
        }

        Assert.Empty(offenders);
    }

    private static bool InATargetsFolder(string relative) =>
        relative.StartsWith("BenchEngine/Targets/", StringComparison.Ordinal) && relative.Count(c => c == '/') >= 3;

    private static string RepositoryRoot()
    {
        var directory = new DirectoryInfo(AppContext.BaseDirectory);
        while (directory is not null && !File.Exists(Path.Combine(directory.FullName, "BenchWeb.sln")))
        {
            directory = directory.Parent;
        }

        return directory?.FullName ?? throw new InvalidOperationException("The repository (BenchWeb.sln) is not above the test assembly.");
    }
}
