using BenchEngine.Running;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Storage.ValueConversion;

namespace BenchWeb.Data;

/// <summary>Profiles, runs and their seconds, and stored secrets (SQLite by default).</summary>
public sealed class BenchDbContext(DbContextOptions<BenchDbContext> options) : DbContext(options)
{
    public DbSet<ProfileEntity> Profiles => Set<ProfileEntity>();

    public DbSet<RunEntity> Runs => Set<RunEntity>();

    public DbSet<RunSecondEntity> RunSeconds => Set<RunSecondEntity>();

    public DbSet<StoredSecret> Secrets => Set<StoredSecret>();

    protected override void ConfigureConventions(ModelConfigurationBuilder configurationBuilder)
    {
        ArgumentNullException.ThrowIfNull(configurationBuilder);

        // SQLite cannot order or compare DateTimeOffset text; as a binary number it can.
        configurationBuilder.Properties<DateTimeOffset>().HaveConversion<DateTimeOffsetToBinaryConverter>();
        configurationBuilder.Properties<DateTimeOffset?>().HaveConversion<DateTimeOffsetToBinaryConverter>();
    }

    protected override void OnModelCreating(ModelBuilder modelBuilder)
    {
        ArgumentNullException.ThrowIfNull(modelBuilder);

        modelBuilder.Entity<ProfileEntity>(profile =>
        {
            profile.Property(p => p.Name).HasMaxLength(200);
            profile.HasIndex(p => p.Name);
        });

        modelBuilder.Entity<RunEntity>(run =>
        {
            run.Property(r => r.Status).HasConversion<string>().HasMaxLength(20);
            run.Property(r => r.ProfileName).HasMaxLength(200);
            run.Property(r => r.TargetKind).HasConversion<string>().HasMaxLength(20);
            run.Property(r => r.Verdict).HasMaxLength(10);
            run.HasIndex(r => r.ProfileName);
            run.HasIndex(r => r.TargetKind);
            run.HasIndex(r => r.Status);
            run.HasIndex(r => r.QueuedAt);
            run.HasIndex(r => r.ProfileId);
            run.HasMany(r => r.Seconds).WithOne().HasForeignKey(s => s.RunId).OnDelete(DeleteBehavior.Cascade);
            run.Ignore(r => r.IsActive);
        });

        modelBuilder.Entity<RunSecondEntity>(second => second.HasKey(s => new { s.RunId, s.Index }));

        modelBuilder.Entity<StoredSecret>(secret => secret.HasKey(s => s.Name));
    }
}
