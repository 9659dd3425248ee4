using Bunit;
using BenchWeb.Components.Pages.Runs;

namespace BenchWeb.Tests.Support.Components;

/// <summary>The run page's chart module (<see cref="RunLive.ModulePath"/>) in a bUnit context: its import, and the view its
/// start returns with the functions the page calls on it.</summary>
internal static class RunChartModule
{
    /// <param name="context">The test's context.</param>
    /// <param name="loaded">Whether the import is answered at once; otherwise the page waits for the module until
    /// <see cref="JSObjectSetup.Answer"/>.</param>
    public static (JSObjectSetup Module, JSObjectSetup View) SetUp(BenchWebComponentContext context, bool loaded = true)
    {
        ArgumentNullException.ThrowIfNull(context);
        var module = JSObjectSetup.Module(context.JSInterop, RunLive.ModulePath, loaded);
        var view = JSObjectSetup.ReturnedBy(module.Interop, "start");
        foreach (var function in new[] { "add", "stop", "setProvisioned", "setWindow", "setSlowRequests", "drawAll" })
        {
            view.Interop.SetupVoid(function, _ => true).SetVoidResult();
        }

        return (module, view);
    }
}
