using BenchEngine.Running;
using BenchWeb.Headless;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Web.Headless;

/// <summary>A profile spread over agents is not run headless as if one client were several.</summary>
[UnitTest]
public sealed class HeadlessAgentsTests
{
    [Fact]
    public async Task AProfileOverSeveralAgents_IsRefusedOnItsField_AndNothingRuns()
    {
        var profile = Path.Combine(Path.GetTempPath(), $"agents-{Guid.NewGuid():N}.json");
        await File.WriteAllTextAsync(profile, new RunPlan { Load = new LoadOptions { Concurrency = 6, Agents = 3 }, Stop = new StopOptions { DurationSeconds = 2 } }.ToJson());
        try
        {
            using var output = new StringWriter();
            using var error = new StringWriter();

            var code = await HeadlessCommand.RunAsync([profile], output, error, CancellationToken.None);

            Assert.Equal(HeadlessCommand.ExitInvalidInput, code);
            Assert.Contains("Load.Agents", error.ToString(), StringComparison.Ordinal);
            Assert.Contains("one client", error.ToString(), StringComparison.Ordinal);
            Assert.DoesNotContain("second", output.ToString(), StringComparison.OrdinalIgnoreCase);
        }
        finally
        {
            File.Delete(profile);
        }
    }

    [Fact]
    public async Task ASweepOfTheNumberOfAgents_IsRefusedHeadless_AndNothingRuns()
    {
        var folder = Directory.CreateTempSubdirectory("headless-agents-sweep-");
        try
        {
            var profile = Path.Combine(folder.FullName, "profile.json");
            var sweep = Path.Combine(folder.FullName, "sweep.json");
            await File.WriteAllTextAsync(profile, new RunPlan { Load = new LoadOptions { Concurrency = 6 }, Stop = new StopOptions { DurationSeconds = 2 } }.ToJson());
            await File.WriteAllTextAsync(sweep, """{"setting":"Load.Agents","values":["1","2"]}""");
            using var output = new StringWriter();
            using var error = new StringWriter();

            var code = await HeadlessCommand.RunAsync([profile, "--sweep", sweep], output, error, CancellationToken.None);

            Assert.Equal(HeadlessCommand.ExitInvalidInput, code);
            Assert.Contains("a headless sweep is one client", error.ToString(), StringComparison.Ordinal);
        }
        finally
        {
            folder.Delete(recursive: true);
        }
    }
}
