using BenchWeb.Apis;
using BenchWeb.Components;
using BenchWeb.Configuration;
using BenchWeb.Guard.Security;
using BenchWeb.Hubs;

namespace BenchWeb.Hosting;

/// <summary>Builds the dashboard: used by <c>Program</c>, and by tests that host it in-process.</summary>
public static class BenchWebApplication
{
    public static WebApplication Create(string[] args, Action<WebApplicationBuilder>? configure = null)
    {
        // The content root is the app's own folder, whichever directory it was started from.
        var builder = WebApplication.CreateBuilder(new WebApplicationOptions
        {
            Args = args,
            ContentRootPath = AppContext.BaseDirectory,
            ApplicationName = typeof(BenchWebApplication).Assembly.GetName().Name,
        });
        // Started from a build output (not a publish folder) outside Development, ASP.NET Core serves the
        // static files as empty 200 responses and the dashboard never becomes interactive. The build's
        // manifest maps them to their source folders; a publish folder has no such manifest, so this does nothing there.
        builder.WebHost.UseStaticWebAssets();
        builder.WebHost.ConfigureKestrel((context, kestrel) =>
            kestrel.Limits.MaxRequestBodySize = context.Configuration.GetSection(BenchWebOptions.SectionName).Get<BenchWebOptions>()?.MaxRequestBodyBytes ?? new BenchWebOptions().MaxRequestBodyBytes);
        // HTTP/1.1 requires a Host; an empty one leaves the pages no address to render from (the framework throws). The
        // host filter, which applies AllowedHosts, answers such a request 400 before anything else reads it.
        builder.Services.Configure<Microsoft.AspNetCore.HostFiltering.HostFilteringOptions>(hosts => hosts.AllowEmptyHosts = false);
        // A request an endpoint cannot bind (a sign-in form without its field or antiforgery token, a body of another type)
        // is answered 400, in every environment: never an exception page with the framework's stack for an anonymous caller.
        builder.Services.Configure<Microsoft.AspNetCore.Routing.RouteHandlerOptions>(handlers => handlers.ThrowOnBadRequest = false);
        configure?.Invoke(builder);
        builder.AddBenchWeb();

        var app = builder.Build();

        // Read through the validated settings: out of range, the start fails naming it before anything is changed.
        var settings = app.Services.GetRequiredService<Microsoft.Extensions.Options.IOptions<BenchWebOptions>>().Value;
        ThreadPoolFloor.Raise(settings.MinWorkerThreads);
        if (!app.Environment.IsDevelopment())
        {
            app.UseExceptionHandler("/Error", createScopeForErrors: true);
        }

        // API clients get problem details for an unexpected failure, never the HTML error page.
        app.UseWhen(context => context.Request.Path.StartsWithSegments("/api"), api => api.UseExceptionHandler(new ExceptionHandlerOptions
        {
            // A body too large or cut short is the client's error, answered with its own status (413, 400).
            StatusCodeSelector = exception => exception is BadHttpRequestException bad ? bad.StatusCode : StatusCodes.Status500InternalServerError,
        }));
        app.UseStatusCodePagesWithReExecute("/not-found", createScopeForStatusCodePages: true);
        app.Use((context, next) =>
        {
            // Error pages are for page requests (GET). A refused form post keeps its plain status: running it through the
            // pipeline again as a post would meet its failed antiforgery check a second time.
            if (!HttpMethods.IsGet(context.Request.Method) && !HttpMethods.IsHead(context.Request.Method)
                && context.Features.Get<Microsoft.AspNetCore.Diagnostics.IStatusCodePagesFeature>() is { } pages)
            {
                pages.Enabled = false;
            }

            return next(context);
        });
        app.Use((context, next) =>
        {
            // Every answer is read as the type it says it is (a browser never guesses a script or a page from an uploaded
            // file's bytes), and no address of this app goes to another site in a Referer.
            context.Response.Headers.XContentTypeOptions = "nosniff";
            context.Response.Headers["Referrer-Policy"] = "same-origin";
            return next(context);
        });
        app.UseMiddleware<CrossSiteRequestGuard>();
        app.UseAuthentication();
        app.UseMiddleware<ApiRequestLimits>();
        app.UseAuthorization();
        app.UseAntiforgery();

        // Probes from App Service and container hosts carry no sign-in; the answer is a status word.
        app.MapHealthEndpoints();

        // An agent-only instance (shared mode) executes runs and pushes their seconds through the backplane; it serves no
        // page and no API: the web instances do.
        if (!settings.Agent.ServesDashboard)
        {
            return app;
        }

        // Scripts and styles are no secret; the sign-in page needs them before anyone has signed in.
        app.MapStaticAssets().AllowAnonymous();
        app.MapSignIn();
        app.MapHub<RunsHub>(RunsHub.Path).RequireAuthorization(Policies.Viewer);
        app.MapJobsDashboard();
        // Where the jobs page was before the dashboard moved to Hangfire's.
        app.MapGet("/jobs", () => TypedResults.Redirect(JobsExtensions.DashboardPath, permanent: true)).ExcludeFromDescription();
        app.MapBenchWebApis();
        app.MapCompareApi();
        app.MapRazorComponents<App>().AddInteractiveServerRenderMode();
        return app;
    }
}
