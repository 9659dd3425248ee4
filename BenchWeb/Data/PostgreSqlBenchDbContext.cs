using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Design;

namespace BenchWeb.Data;

/// <summary>The same model on PostgreSQL (shared mode). A type of its own only so that its migrations, made for
/// PostgreSQL, are told apart from SQLite's: every other part of the app sees a <see cref="BenchDbContext"/>.</summary>
public sealed class PostgreSqlBenchDbContext(DbContextOptions<BenchDbContext> options) : BenchDbContext(options);

/// <summary>Gives the app <see cref="PostgreSqlBenchDbContext"/>s wherever it asks for a <see cref="BenchDbContext"/>.</summary>
internal sealed class PostgreSqlContextFactory(DbContextOptions<BenchDbContext> options) : IDbContextFactory<BenchDbContext>
{
    public BenchDbContext CreateDbContext() => new PostgreSqlBenchDbContext(options);
}

/// <summary>Lets <c>dotnet ef migrations add X --context PostgreSqlBenchDbContext</c> build the PostgreSQL model without a
/// server (making a migration never connects).</summary>
internal sealed class PostgreSqlDesignTimeFactory : IDesignTimeDbContextFactory<PostgreSqlBenchDbContext>
{
    public PostgreSqlBenchDbContext CreateDbContext(string[] args) =>
        new(new DbContextOptionsBuilder<BenchDbContext>().UseNpgsql("Host=localhost;Database=benchweb").Options);
}
