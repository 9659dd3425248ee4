using BenchWeb.Guard.Security;
using BenchWeb.Headless;
using BenchWeb.Hosting;

if (args is ["run", .. var runArgs])
{
    using var cancellation = HeadlessCancellation.Listen();
    return await HeadlessCommand.RunAsync(runArgs, Console.Out, Console.Error, cancellation.Token);
}

if (args is [LocalAdminLink.Command, .. var linkArgs])
{
    return await AdminLinkCommand.RunAsync(linkArgs, Console.Out, Console.Error, configure: null, CancellationToken.None);
}

await BenchWebApplication.Create(args).RunAsync();
return 0;
