using BenchEngine.Metrics;
using Microsoft.Extensions.Options;

namespace BenchWeb.Configuration;

/// <summary>The bounds past which a second is the client's, not the service's (section <c>BenchWeb:ClientLimits</c>), bound
/// straight to the engine's <see cref="ClientLimits"/> so its documented defaults and ranges are the only ones. A bound set to
/// null (in JSON) or to an empty value (an environment variable) is switched off.</summary>
public static class ClientLimitsSettings
{
    public const string SectionName = "BenchWeb:ClientLimits";

    /// <summary>Binds and validates the bounds; a bound out of its range stops the app at start, naming it.</summary>
    public static IServiceCollection AddClientLimits(this IServiceCollection services)
    {
        services.AddOptions<ClientLimits>().BindConfiguration(SectionName).ValidateDataAnnotations().ValidateOnStart();
        return services;
    }

    /// <summary>The bounds in <paramref name="configuration"/>, checked exactly as the dashboard checks them at start (the
    /// headless command has no host to do it).</summary>
    /// <exception cref="OptionsValidationException">A bound is out of its range.</exception>
    /// <exception cref="InvalidOperationException">A bound is not a number.</exception>
    public static ClientLimits Read(IConfiguration configuration)
    {
        ArgumentNullException.ThrowIfNull(configuration);
        using var services = new ServiceCollection().AddSingleton(configuration).AddClientLimits().BuildServiceProvider();
        return services.GetRequiredService<IOptions<ClientLimits>>().Value;
    }
}
