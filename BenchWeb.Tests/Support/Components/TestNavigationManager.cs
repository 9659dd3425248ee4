using Microsoft.AspNetCore.Components;

namespace BenchWeb.Tests.Support.Components;

/// <summary>Records where a component navigates instead of leaving the page.</summary>
internal sealed class TestNavigationManager : NavigationManager
{
    public TestNavigationManager(string relativeUri = "") => Initialize("http://localhost/", "http://localhost/" + relativeUri);

    public List<string> History { get; } = [];

    protected override void NavigateToCore(string uri, NavigationOptions options)
    {
        History.Add(uri);
        Uri = ToAbsoluteUri(uri).ToString();
    }
}
