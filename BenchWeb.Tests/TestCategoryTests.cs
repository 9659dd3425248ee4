using System.Reflection;
using BenchWeb.Tests.Support;
using Xunit.Sdk;

namespace BenchWeb.Tests;

/// <summary>Every test can be run by its kind: a new test class without one fails here, naming itself.</summary>
[UnitTest]
public sealed class TestCategoryTests
{
    private static readonly Type[] Kinds = [typeof(UnitTestAttribute), typeof(IntegrationTestAttribute), typeof(BrowserTestAttribute)];

    [Fact]
    public void EveryTestClass_HasExactlyOneOfUnitIntegrationAndBrowser()
    {
        var testClasses = typeof(TestCategoryTests).Assembly.GetTypes().Where(t => t is { IsClass: true, IsAbstract: false } && HasTests(t)).ToList();

        var problems = Problems(testClasses);

        Assert.True(testClasses.Count > 50, $"only {testClasses.Count} test classes found: the search for them is broken");
        Assert.True(problems.Count == 0, "Give each test class exactly one of [UnitTest], [IntegrationTest] and [BrowserTest] (see Support/TestCategories.cs):\n"
            + string.Join('\n', problems));
    }

    [Fact]
    public void TheCheck_NamesAClassWithoutAKind_AndOneWithTwo()
    {
        var problems = Problems([typeof(WithoutKind), typeof(WithTwoKinds), typeof(WithOneKind)]);

        Assert.Equal(
            [
                $"{typeof(WithTwoKinds).FullName}: both UnitTest and IntegrationTest",
                $"{typeof(WithoutKind).FullName}: no kind",
            ],
            problems);
    }

    [Fact]
    public void TheKinds_AreTheCategoryTraitsXunitFiltersBy_FoundAsXunitFindsThem()
    {
        Assert.Equal(["Category=Unit", "Category=Slow"], Traits(typeof(SlowUnit)));
        Assert.Equal(["Category=Integration"], Traits(typeof(WithOneKind)));
        Assert.Equal(["Category=Browser"], Traits(typeof(Browser)));
    }

    /// <summary>The traits of a class, found by xUnit's own means: the discoverer each trait attribute names.</summary>
    private static List<string> Traits(Type type) =>
        type.GetCustomAttributesData()
            .Select(Reflector.Wrap)
            .Where(attribute => attribute.GetCustomAttributes(typeof(TraitDiscovererAttribute)).Any())
            .SelectMany(attribute => ExtensibilityPointFactory.GetTraitDiscoverer(new NullMessageSink(), attribute.GetCustomAttributes(typeof(TraitDiscovererAttribute)).Single())
                .GetTraits(attribute))
            .Select(trait => $"{trait.Key}={trait.Value}")
            .ToList();

    private static bool HasTests(Type type) =>
        type.GetMethods(BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance | BindingFlags.Static)
            .Any(m => m.IsDefined(typeof(FactAttribute), inherit: true));

    private static List<string> Problems(IEnumerable<Type> testClasses) =>
        testClasses
            .Select(type => (Type: type, Kinds: Kinds.Where(kind => type.IsDefined(kind, inherit: true)).Select(kind => kind.Name[..^"Attribute".Length]).ToList()))
            .Where(c => c.Kinds.Count != 1)
            .Select(c => $"{c.Type.FullName}: {(c.Kinds.Count == 0 ? "no kind" : "both " + string.Join(" and ", c.Kinds))}")
            .Order(StringComparer.Ordinal)
            .ToList();

    // Abstract, so that xUnit runs none of them: they only show what the checks find.
    public abstract class WithoutKind
    {
        [Fact]
        public void A()
        {
        }
    }

    [UnitTest]
    [IntegrationTest]
    public abstract class WithTwoKinds
    {
        [Fact]
        public void A()
        {
        }
    }

    [IntegrationTest]
    public abstract class WithOneKind
    {
        [Fact]
        public void A()
        {
        }
    }

    [UnitTest]
    [Slow]
    public abstract class SlowUnit
    {
        [Fact]
        public void A()
        {
        }
    }

    [BrowserTest]
    public abstract class Browser
    {
        [Fact]
        public void A()
        {
        }
    }
}
