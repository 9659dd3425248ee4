// A test renderer reads render-tree frames by design, as bUnit does.
#pragma warning disable BL0006
using Microsoft.AspNetCore.Components;
using Microsoft.AspNetCore.Components.RenderTree;
using Microsoft.Extensions.Logging.Abstractions;

namespace BenchWeb.Tests.Support.Components;

/// <summary>Renders components the way the interactive server renderer does (full lifecycle, after-render
/// callbacks, event dispatch), without a browser. bUnit plays this role elsewhere; its published versions
/// cannot run on .NET 10 with the packages available here, so the tests use this small renderer built on the
/// framework's own <see cref="Renderer"/>.</summary>
internal sealed class TestRenderer(IServiceProvider services) : Renderer(services, NullLoggerFactory.Instance)
{
    private readonly List<Exception> _errors = [];

    public override Dispatcher Dispatcher { get; } = Dispatcher.CreateDefault();

    /// <summary>Exceptions the components threw while rendering or handling events.</summary>
    public IReadOnlyList<Exception> Errors => _errors;

    public async Task<RenderedComponent<T>> RenderAsync<T>(IDictionary<string, object?>? parameters = null)
        where T : IComponent
    {
        var (component, id) = await Dispatcher.InvokeAsync(() =>
        {
            var instance = (T)InstantiateComponent(typeof(T));
            return (instance, AssignRootComponentId(instance));
        });
        await Dispatcher.InvokeAsync(() => RenderRootComponentAsync(id, ParameterView.FromDictionary(parameters ?? new Dictionary<string, object?>())));
        ThrowIfFailed();
        return new RenderedComponent<T>(this, id, component);
    }

    internal ArrayRange<RenderTreeFrame> FramesOf(int componentId) => GetCurrentRenderTreeFrames(componentId);

    internal async Task DispatchAsync(ulong handlerId, EventFieldInfo? field, EventArgs args)
    {
        await Dispatcher.InvokeAsync(() => DispatchEventAsync(handlerId, field, args));
        ThrowIfFailed();
    }

    internal void ThrowIfFailed()
    {
        if (_errors.Count > 0)
        {
            throw new AggregateException("A component failed.", _errors);
        }
    }

    // The components run as in the interactive server render mode.
    protected override RendererInfo RendererInfo { get; } = new("Server", isInteractive: true);

    protected override void HandleException(Exception exception) => _errors.Add(exception);

    protected override Task UpdateDisplayAsync(in RenderBatch renderBatch) => Task.CompletedTask;
}
