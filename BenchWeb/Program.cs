using BenchWeb.Components;
using BenchWeb.Headless;

if (args is ["run", .. var runArgs])
{
    using var cancellation = new CancellationTokenSource();
    Console.CancelKeyPress += (_, e) =>
    {
        e.Cancel = true;
        cancellation.Cancel();
    };
    return await HeadlessCommand.RunAsync(runArgs, Console.Out, Console.Error, cancellation.Token);
}

// The content root is the app's own folder, whichever directory it was started from.
var builder = WebApplication.CreateBuilder(new WebApplicationOptions { Args = args, ContentRootPath = AppContext.BaseDirectory });
builder.Services.AddRazorComponents();

var app = builder.Build();
if (!app.Environment.IsDevelopment())
{
    app.UseExceptionHandler("/Error", createScopeForErrors: true);
}

app.UseStatusCodePagesWithReExecute("/not-found", createScopeForStatusCodePages: true);
app.UseAntiforgery();
app.MapStaticAssets();
app.MapRazorComponents<App>();

await app.RunAsync();
return 0;
