using BenchWeb.Data;
using BenchWeb.Tests.Support;
using Microsoft.EntityFrameworkCore;

namespace BenchWeb.Tests.Web.Data;

/// <summary>The migrations of each database describe the model the app has: a change to an entity without its migration
/// (or two migrations merged with one of them lost from the snapshot) fails here, not on a user's first start.</summary>
[UnitTest]
public sealed class ModelSnapshotTests
{
    [Fact]
    public void SqliteMigrations_DescribeTheModel()
    {
        using var db = new BenchDbContext(new DbContextOptionsBuilder<BenchDbContext>().UseSqlite("Data Source=:memory:").Options);

        Assert.False(db.Database.HasPendingModelChanges(), "the model has changes no SQLite migration makes");
    }

    [Fact]
    public void PostgreSqlMigrations_DescribeTheModel()
    {
        // Never connects: the model and the snapshot are compared in memory.
        using var db = new PostgreSqlBenchDbContext(new DbContextOptionsBuilder<BenchDbContext>().UseNpgsql("Host=127.0.0.1;Database=unused").Options);

        Assert.False(db.Database.HasPendingModelChanges(), "the model has changes no PostgreSQL migration makes");
    }
}
