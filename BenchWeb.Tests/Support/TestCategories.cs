using Xunit.Abstractions;
using Xunit.Sdk;

namespace BenchWeb.Tests.Support;

/// <summary>The kinds of test, as the trait <c>Category</c>: run one kind with <c>./test.sh --filter Category=Unit</c>
/// (or <c>Integration</c>, <c>Browser</c>), leave out the slow ones with <c>--filter Category!=Slow</c>. Every test class
/// has exactly one of <see cref="UnitTestAttribute"/>, <see cref="IntegrationTestAttribute"/> and
/// <see cref="BrowserTestAttribute"/> (a test checks it), and <see cref="SlowAttribute"/> besides when it takes more than
/// about five seconds.</summary>
public static class TestCategories
{
    public const string Trait = "Category";

    public const string Unit = "Unit";

    public const string Integration = "Integration";

    public const string Browser = "Browser";

    public const string Slow = "Slow";

    /// <summary>The full name of <see cref="CategoryTraitDiscoverer"/>, for <see cref="TraitDiscovererAttribute"/>.</summary>
    internal const string Discoverer = "BenchWeb.Tests.Support.CategoryTraitDiscoverer";

    internal const string Assembly = "BenchWeb.Tests";
}

/// <summary>A test category attribute: its category becomes the test's <c>Category</c> trait.</summary>
public abstract class TestCategoryAttribute(string category) : Attribute, ITraitAttribute
{
    public string Category { get; } = category;
}

/// <summary>In process only: no server, no app host, no browser (temporary files and a component test's own SQLite
/// file are fine).</summary>
[TraitDiscoverer(TestCategories.Discoverer, TestCategories.Assembly)]
[AttributeUsage(AttributeTargets.Class, AllowMultiple = false)]
public sealed class UnitTestAttribute() : TestCategoryAttribute(TestCategories.Unit);

/// <summary>Talks to a server: Azurite, the Cosmos DB API server, a loopback stand-in (silent, stalling or stub
/// servers), or the dashboard itself (in process with its SQLite file and job scheduler, or as its own process).</summary>
[TraitDiscoverer(TestCategories.Discoverer, TestCategories.Assembly)]
[AttributeUsage(AttributeTargets.Class, AllowMultiple = false)]
public sealed class IntegrationTestAttribute() : TestCategoryAttribute(TestCategories.Integration);

/// <summary>Drives Chromium through Playwright.</summary>
[TraitDiscoverer(TestCategories.Discoverer, TestCategories.Assembly)]
[AttributeUsage(AttributeTargets.Class, AllowMultiple = false)]
public sealed class BrowserTestAttribute() : TestCategoryAttribute(TestCategories.Browser);

/// <summary>Takes more than about five seconds: on a whole class, or on one test.</summary>
[TraitDiscoverer(TestCategories.Discoverer, TestCategories.Assembly)]
[AttributeUsage(AttributeTargets.Class | AttributeTargets.Method, AllowMultiple = false)]
public sealed class SlowAttribute() : TestCategoryAttribute(TestCategories.Slow);

/// <summary>Gives xUnit the <c>Category</c> trait of a <see cref="TestCategoryAttribute"/>.</summary>
public sealed class CategoryTraitDiscoverer : ITraitDiscoverer
{
    public IEnumerable<KeyValuePair<string, string>> GetTraits(IAttributeInfo traitAttribute)
    {
        ArgumentNullException.ThrowIfNull(traitAttribute);
        if (traitAttribute is IReflectionAttributeInfo { Attribute: TestCategoryAttribute attribute })
        {
            yield return new(TestCategories.Trait, attribute.Category);
        }
    }
}
