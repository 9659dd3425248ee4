using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Design;

namespace BenchWeb.Data;

/// <summary>Lets <c>dotnet ef migrations add</c> build the model without starting the app.</summary>
internal sealed class BenchDbContextFactory : IDesignTimeDbContextFactory<BenchDbContext>
{
    public BenchDbContext CreateDbContext(string[] args) =>
        new(new DbContextOptionsBuilder<BenchDbContext>().UseSqlite("Data Source=design-time.db").Options);
}
