using Microsoft.JSInterop;

namespace BenchWeb.Tests.Support.Components;

/// <summary>JS interop in strict mode: every call must have been planned, or the component under test fails.
/// Records each call (identifier and arguments) so a test can check what the page asked the browser to do.</summary>
internal sealed class StrictJSRuntime : IJSRuntime
{
    private readonly Dictionary<string, Func<object?[], object?>> _planned = new(StringComparer.Ordinal);
    private readonly List<JSCall> _calls = [];

    public IReadOnlyList<JSCall> Calls => _calls;

    /// <summary>Plans <c>import(path)</c> to return a module that answers the given functions.</summary>
    public StrictJSObject PlanModule(string path)
    {
        var module = new StrictJSObject(this, $"module {path}");
        _planned[$"import:{path}"] = _ => module;
        return module;
    }

    public ValueTask<TValue> InvokeAsync<TValue>(string identifier, object?[]? args) => Invoke<TValue>("window", identifier, args);

    public ValueTask<TValue> InvokeAsync<TValue>(string identifier, CancellationToken cancellationToken, object?[]? args) => Invoke<TValue>("window", identifier, args);

    internal ValueTask<TValue> Invoke<TValue>(string target, string identifier, object?[]? args)
    {
        args ??= [];
        _calls.Add(new JSCall(target, identifier, args));
        var key = identifier == "import" && args is [string path] ? $"import:{path}" : identifier;
        if (!_planned.TryGetValue(key, out var answer))
        {
            throw new InvalidOperationException($"Strict JS interop: '{identifier}' on {target} was not planned.");
        }

        return ValueTask.FromResult((TValue)answer(args)!);
    }

    internal void Plan(string identifier, Func<object?[], object?> answer) => _planned[identifier] = answer;
}

/// <summary>One JS interop call.</summary>
internal sealed record JSCall(string Target, string Identifier, object?[] Arguments);

/// <summary>A JS object (a module or an object a function returned) whose functions must be planned.</summary>
internal sealed class StrictJSObject(StrictJSRuntime runtime, string name) : IJSObjectReference
{
    private readonly Dictionary<string, Func<object?[], object?>> _functions = new(StringComparer.Ordinal);

    public bool Disposed { get; private set; }

    /// <summary>Plans a function; its result is returned to the caller (null for void functions).</summary>
    public StrictJSObject Plan(string function, Func<object?[], object?>? answer = null)
    {
        _functions[function] = answer ?? (_ => null);
        return this;
    }

    public ValueTask<TValue> InvokeAsync<TValue>(string identifier, object?[]? args) => Invoke<TValue>(identifier, args);

    public ValueTask<TValue> InvokeAsync<TValue>(string identifier, CancellationToken cancellationToken, object?[]? args) => Invoke<TValue>(identifier, args);

    private ValueTask<TValue> Invoke<TValue>(string identifier, object?[]? args)
    {
        if (!_functions.TryGetValue(identifier, out var answer))
        {
            throw new InvalidOperationException($"Strict JS interop: '{identifier}' on {name} was not planned.");
        }

        runtime.Plan($"{name}.{identifier}", answer);
        return runtime.Invoke<TValue>(name, $"{name}.{identifier}", args);
    }

    public ValueTask DisposeAsync()
    {
        Disposed = true;
        return ValueTask.CompletedTask;
    }
}
