using BenchEngine.Running;
using BenchWeb.Data;
using BenchWeb.Sweeps;
using BenchWeb.Tests.Support;
using BenchWeb.Tests.Support.Components;
using Microsoft.Extensions.DependencyInjection;

namespace BenchWeb.Tests.Web.Sweeps;

/// <summary>The read side of sweeps on a migrated SQLite file.</summary>
[UnitTest]
public sealed class SweepReaderTests
{
    private static readonly DateTimeOffset Start = new(2026, 11, 21, 9, 0, 0, TimeSpan.Zero);

    [Fact]
    public async Task Names_NewestSweepFirst_AtMostTheListsBound()
    {
        await using var context = new BenchWebComponentContext();
        await using (var db = await context.Databases.CreateDbContextAsync())
        {
            for (var i = 0; i <= SweepReader.MaxListed; i++)
            {
                db.Sweeps.Add(new SweepEntity { Name = $"sweep {i}", PlanJson = "{}", SweepJson = "{}", Status = RunStatus.Completed, QueuedAt = Start.AddMinutes(i) });
            }

            await db.SaveChangesAsync();
        }

        var names = await context.Services.GetRequiredService<SweepReader>().NamesAsync(CancellationToken.None);

        Assert.Equal(SweepReader.MaxListed, names.Count);
        Assert.Equal($"sweep {SweepReader.MaxListed}", names[0].Name);
        Assert.Equal("sweep 1", names[^1].Name);
        Assert.True(names.Zip(names.Skip(1)).All(pair => pair.First.Id > pair.Second.Id));
    }
}
