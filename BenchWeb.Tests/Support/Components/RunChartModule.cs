using Bunit;
using BenchWeb.Components.Pages.Runs;

namespace BenchWeb.Tests.Support.Components;

/// <summary>The run page's chart module (<see cref="RunLive.ModulePath"/>) in a bUnit context: its import, and the view its
/// start returns with the functions the page calls on it.</summary>
internal static class RunChartModule
{
    public static (JSObjectSetup Module, JSObjectSetup View) SetUp(BenchWebComponentContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        var module = JSObjectSetup.Module(context.JSInterop, RunLive.ModulePath);
        var view = JSObjectSetup.ReturnedBy(module.Interop, "start");
        foreach (var function in new[] { "add", "stop", "setProvisioned", "setWindow", "setSlowRequests", "drawAll" })
        {
            view.Interop.SetupVoid(function, _ => true).SetVoidResult();
        }

        return (module, view);
    }
}
