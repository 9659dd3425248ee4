using BenchWeb.Extensions;
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

await BenchWebApplication.Create(args).RunAsync();
return 0;
