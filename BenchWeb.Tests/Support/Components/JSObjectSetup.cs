using Bunit;
using Microsoft.JSInterop;

namespace BenchWeb.Tests.Support.Components;

/// <summary>bUnit's <c>SetupModule</c> with one addition: the reference the component receives remembers being
/// disposed. bUnit's own references ignore <c>DisposeAsync</c>, and a chart page must keep its module and its
/// chart view while it is shown. Calls on the reference go to <see cref="Interop"/>, where each must be set up
/// (the mode is the context's, strict here) and is recorded, as in the context's own <c>JSInterop</c>.</summary>
internal sealed class JSObjectSetup : JSRuntimeInvocationHandler<IJSObjectReference>
{
    private JSObjectSetup(BunitJSInterop parent, InvocationMatcher matcher, bool answered = true)
        : base(matcher, isCatchAllHandler: false)
    {
        Interop = new BunitJSModuleInterop(parent);
        if (answered)
        {
            Answer();
        }
    }

    /// <summary>Where the functions of the object are set up and their calls recorded.</summary>
    public BunitJSModuleInterop Interop { get; }

    public bool Disposed { get; private set; }

    /// <summary>Answers <c>import(path)</c> with a module, at once or, when not <paramref name="answered"/>, once
    /// <see cref="Answer"/> is called (a browser slow to load it).</summary>
    public static JSObjectSetup Module(BunitJSInterop interop, string path, bool answered = true) =>
        Add(interop, new JSObjectSetup(
            interop,
            invocation => invocation.Identifier == "import" && invocation.Arguments is [string requested] && requested == path,
            answered));

    /// <summary>Completes the calls made so far, and answers those to come, with the object.</summary>
    public void Answer() => SetResult(new Reference(this));

    /// <summary>Answers a function that returns a JS object (called with any arguments).</summary>
    public static JSObjectSetup ReturnedBy(BunitJSInterop interop, string function) =>
        Add(interop, new JSObjectSetup(interop, invocation => invocation.Identifier == function));

    private static JSObjectSetup Add(BunitJSInterop interop, JSObjectSetup setup)
    {
        ArgumentNullException.ThrowIfNull(interop);
        interop.AddInvocationHandler(setup);
        return setup;
    }

    private sealed class Reference(JSObjectSetup setup) : IJSObjectReference
    {
        public ValueTask<TValue> InvokeAsync<TValue>(string identifier, object?[]? args) =>
            setup.Interop.JSRuntime.InvokeAsync<TValue>(identifier, args);

        public ValueTask<TValue> InvokeAsync<TValue>(string identifier, CancellationToken cancellationToken, object?[]? args) =>
            setup.Interop.JSRuntime.InvokeAsync<TValue>(identifier, cancellationToken, args);

        public ValueTask DisposeAsync()
        {
            setup.Disposed = true;
            return ValueTask.CompletedTask;
        }
    }
}
