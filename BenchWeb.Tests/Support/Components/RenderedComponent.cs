// A test renderer reads render-tree frames by design, as bUnit does.
#pragma warning disable BL0006
using System.Net;
using System.Text;
using Microsoft.AspNetCore.Components;
using Microsoft.AspNetCore.Components.RenderTree;

namespace BenchWeb.Tests.Support.Components;

/// <summary>A rendered root component: its current markup, and events raised on its elements by id.</summary>
internal sealed class RenderedComponent<T>(TestRenderer renderer, int componentId, T instance) where T : IComponent
{
    public T Instance { get; } = instance;

    /// <summary>The current HTML of the component and its children (event handlers left out).</summary>
    public string Markup => renderer.Dispatcher.InvokeAsync(() =>
    {
        var html = new StringBuilder();
        WriteComponent(html, componentId);
        return html.ToString();
    }).GetAwaiter().GetResult();

    /// <summary>Runs code on the renderer's dispatcher, as the circuit does for JS interop callbacks.</summary>
    public async Task InvokeAsync(Func<Task> work)
    {
        await renderer.Dispatcher.InvokeAsync(work);
        renderer.ThrowIfFailed();
    }

    public bool Exists(string id) => FindHandler(id, null) is not null;

    /// <summary>Types a value into the element with this id and leaves it (an <c>onchange</c>).</summary>
    public Task ChangeAsync(string id, string value) =>
        Raise(id, "onchange", new ChangeEventArgs { Value = value }, value);

    public Task ClickAsync(string id) => Raise(id, "onclick", new Microsoft.AspNetCore.Components.Web.MouseEventArgs(), null);

    /// <summary>Submits the form that contains the element with this id.</summary>
    public Task SubmitAsync(string elementIdInForm) => Raise(elementIdInForm, "onsubmit", EventArgs.Empty, null, searchAncestors: true);

    private async Task Raise(string id, string eventName, EventArgs args, string? fieldValue, bool searchAncestors = false)
    {
        var found = renderer.Dispatcher.InvokeAsync(() => FindHandler(id, eventName, searchAncestors)).GetAwaiter().GetResult()
            ?? throw new InvalidOperationException($"No element with id '{id}' handles {eventName}.");
        await renderer.DispatchAsync(found.HandlerId, fieldValue is null ? null : new EventFieldInfo { ComponentId = found.ComponentId, FieldValue = fieldValue }, args);
    }

    private sealed record Handler(ulong HandlerId, int ComponentId);

    private Handler? FindHandler(string id, string? eventName, bool searchAncestors = false) =>
        Search(componentId, id, eventName, searchAncestors, []);

    // Walks the render tree depth first; `open` holds the enclosing elements' handlers for the event.
    private Handler? Search(int component, string id, string? eventName, bool searchAncestors, Stack<Handler?> open)
    {
        var frames = renderer.FramesOf(component);
        return SearchFrames(component, frames, 0, frames.Count, id, eventName, searchAncestors, open);
    }

    private Handler? SearchFrames(int component, ArrayRange<RenderTreeFrame> frames, int start, int end, string id, string? eventName, bool searchAncestors, Stack<Handler?> open)
    {
        for (var i = start; i < end; i++)
        {
            var frame = frames.Array[i];
            switch (frame.FrameType)
            {
                case RenderTreeFrameType.Element:
                    string? elementId = null;
                    Handler? handler = null;
                    var j = i + 1;
                    for (; j < i + frame.ElementSubtreeLength && frames.Array[j].FrameType == RenderTreeFrameType.Attribute; j++)
                    {
                        var attribute = frames.Array[j];
                        if (attribute.AttributeName == "id")
                        {
                            elementId = attribute.AttributeValue as string;
                        }
                        else if (attribute.AttributeName == eventName && attribute.AttributeEventHandlerId != 0)
                        {
                            handler = new Handler(attribute.AttributeEventHandlerId, component);
                        }
                    }

                    if (elementId == id)
                    {
                        return eventName is null ? new Handler(0, component)
                            : handler ?? (searchAncestors ? open.FirstOrDefault(h => h is not null) : null);
                    }

                    open.Push(handler);
                    var inner = SearchFrames(component, frames, j, i + frame.ElementSubtreeLength, id, eventName, searchAncestors, open);
                    open.Pop();
                    if (inner is not null)
                    {
                        return inner;
                    }

                    i += frame.ElementSubtreeLength - 1;
                    break;
                case RenderTreeFrameType.Component:
                    var found = Search(frame.ComponentId, id, eventName, searchAncestors, open);
                    if (found is not null)
                    {
                        return found;
                    }

                    i += frame.ComponentSubtreeLength - 1;
                    break;
            }
        }

        return null;
    }

    private void WriteComponent(StringBuilder html, int component)
    {
        var frames = renderer.FramesOf(component);
        WriteFrames(html, frames, 0, frames.Count);
    }

    private void WriteFrames(StringBuilder html, ArrayRange<RenderTreeFrame> frames, int start, int end)
    {
        for (var i = start; i < end; i++)
        {
            var frame = frames.Array[i];
            switch (frame.FrameType)
            {
                case RenderTreeFrameType.Element:
                    html.Append('<').Append(frame.ElementName);
                    var j = i + 1;
                    for (; j < i + frame.ElementSubtreeLength && frames.Array[j].FrameType == RenderTreeFrameType.Attribute; j++)
                    {
                        var attribute = frames.Array[j];
                        switch (attribute.AttributeValue)
                        {
                            case string text:
                                html.Append(' ').Append(attribute.AttributeName).Append("=\"").Append(WebUtility.HtmlEncode(text)).Append('"');
                                break;
                            case true:
                                html.Append(' ').Append(attribute.AttributeName);
                                break;
                            case IFormattable number:
                                html.Append(' ').Append(attribute.AttributeName).Append("=\"").Append(number.ToString(null, System.Globalization.CultureInfo.InvariantCulture)).Append('"');
                                break;
                        }
                    }

                    html.Append('>');
                    WriteFrames(html, frames, j, i + frame.ElementSubtreeLength);
                    html.Append("</").Append(frame.ElementName).Append('>');
                    i += frame.ElementSubtreeLength - 1;
                    break;
                case RenderTreeFrameType.Text:
                    html.Append(WebUtility.HtmlEncode(frame.TextContent));
                    break;
                case RenderTreeFrameType.Markup:
                    html.Append(frame.MarkupContent);
                    break;
                case RenderTreeFrameType.Component:
                    WriteComponent(html, frame.ComponentId);
                    i += frame.ComponentSubtreeLength - 1;
                    break;
            }
        }
    }
}
