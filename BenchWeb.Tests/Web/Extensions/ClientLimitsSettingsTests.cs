using System.Text;
using BenchEngine.Metrics;
using BenchWeb.Configuration;
using BenchWeb.Tests.Support;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Options;

namespace BenchWeb.Tests.Web.Extensions;

/// <summary><c>BenchWeb:ClientLimits</c> read as the dashboard and the headless command read it.</summary>
[UnitTest]
public sealed class ClientLimitsSettingsTests
{
    [Fact]
    public void Read_BindsEachBound_AndANullOrEmptyValueSwitchesItOff()
    {
        // A JSON null (appsettings.json) and an empty value (an environment variable) both switch a bound off.
        var json = """{ "BenchWeb": { "ClientLimits": { "HostCpuPercent": 90, "SchedulingLagP99Ms": null, "ThreadPoolQueue": 250 } } }""";
        var configuration = new ConfigurationBuilder()
            .AddJsonStream(new MemoryStream(Encoding.UTF8.GetBytes(json)))
            .AddInMemoryCollection(new Dictionary<string, string?> { ["BenchWeb:ClientLimits:GcPauseMs"] = "" })
            .Build();

        var limits = ClientLimitsSettings.Read(configuration);

        Assert.Equal(
            ClientLimits.Default with { HostCpuPercent = 90, SchedulingLagP99Ms = null, ThreadPoolQueue = 250, GcPauseMs = null },
            limits);
    }

    [Fact]
    public void Read_NothingConfigured_GivesTheEnginesDefaults() =>
        Assert.Equal(ClientLimits.Default, ClientLimitsSettings.Read(new ConfigurationBuilder().Build()));

    [Fact]
    public void AppSettings_ListsEachBoundWithTheEnginesDefault()
    {
        var configuration = new ConfigurationBuilder().AddJsonFile(Repository.PathOf("BenchWeb/appsettings.json")).Build();
        var section = configuration.GetSection(ClientLimitsSettings.SectionName);

        Assert.Equal(ClientLimits.Default, ClientLimitsSettings.Read(configuration));
        Assert.Equal(
            typeof(ClientLimits).GetProperties().Select(p => p.Name).Order(),
            section.GetChildren().Select(c => c.Key).Order());
    }

    [Theory]
    [InlineData("ProcessCpuPercent", "0")]
    [InlineData("HostCpuPercent", "150")]
    [InlineData("SchedulingLagP99Ms", "NaN")]
    [InlineData("ThreadPoolQueue", "0")]
    [InlineData("GcPauseMs", "-5")]
    [InlineData("ProcessCpuPercent", "NaN")]
    [InlineData("HostCpuPercent", "NaN")]
    [InlineData("HostCpuProcessCores", "NaN")]
    [InlineData("HostCpuProcessCores", "1e30")]
    [InlineData("HostCpuProcessCores", "-1")]
    [InlineData("GcPauseMs", "Infinity")]
    [InlineData("SentLatePercent", "0")]
    [InlineData("SentLatePercent", "101")]
    public void Read_OutOfRangeBound_IsRefusedNamingIt(string bound, string value)
    {
        var configuration = new ConfigurationBuilder()
            .AddInMemoryCollection(new Dictionary<string, string?> { [$"{ClientLimitsSettings.SectionName}:{bound}"] = value })
            .Build();

        var refused = Assert.Throws<OptionsValidationException>(() => ClientLimitsSettings.Read(configuration));

        Assert.Contains(bound, refused.Message, StringComparison.Ordinal);
    }
}
