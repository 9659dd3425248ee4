using BenchEngine.Targets;
using BenchEngine.Running;
using Microsoft.AspNetCore.DataProtection.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Storage.ValueConversion;

namespace BenchWeb.Data;

/// <summary>Profiles, runs and their seconds, stored secrets, users, their sessions and tokens, uploaded workload files, the
/// installation's settings, the audit log, the agents and, in shared mode, the Data Protection keys (SQLite by default;
/// <see cref="PostgreSqlBenchDbContext"/> in shared mode, with migrations of its own).</summary>
public class BenchDbContext(DbContextOptions<BenchDbContext> options) : DbContext(options), IDataProtectionKeyContext
{
    public DbSet<ProfileEntity> Profiles => Set<ProfileEntity>();

    public DbSet<RunEntity> Runs => Set<RunEntity>();

    public DbSet<SweepEntity> Sweeps => Set<SweepEntity>();

    public DbSet<RunSecondEntity> RunSeconds => Set<RunSecondEntity>();

    /// <summary>The slowest requests of runs, with their diagnostics.</summary>
    public DbSet<RunDiagnosticEntity> RunDiagnostics => Set<RunDiagnosticEntity>();

    public DbSet<StoredSecret> Secrets => Set<StoredSecret>();

    public DbSet<UserEntity> Users => Set<UserEntity>();

    public DbSet<InvitationEntity> Invitations => Set<InvitationEntity>();

    public DbSet<ApiTokenEntity> ApiTokens => Set<ApiTokenEntity>();

    public DbSet<SessionEntity> Sessions => Set<SessionEntity>();

    public DbSet<UploadedFileEntity> UploadedFiles => Set<UploadedFileEntity>();

    public DbSet<AuditEntryEntity> AuditEntries => Set<AuditEntryEntity>();

    public DbSet<InstallationSettingsEntity> InstallationSettings => Set<InstallationSettingsEntity>();

    public DbSet<LaunchPauseEntity> LaunchPauses => Set<LaunchPauseEntity>();

    public DbSet<AgentEntity> Agents => Set<AgentEntity>();

    public DbSet<RunShardEntity> RunShards => Set<RunShardEntity>();

    public DbSet<RunShardSecondEntity> RunShardSeconds => Set<RunShardSecondEntity>();

    /// <summary>Shared mode only: the keys that encrypt stored secrets, so every instance can read them.</summary>
    public DbSet<DataProtectionKey> DataProtectionKeys => Set<DataProtectionKey>();

    /// <summary>The audit log is append-only from the app: a change or removal of an entry is refused before it reaches
    /// the database, whichever code tries it.</summary>
    public override int SaveChanges(bool acceptAllChangesOnSuccess)
    {
        RefuseAuditChanges();
        return base.SaveChanges(acceptAllChangesOnSuccess);
    }

    public override Task<int> SaveChangesAsync(bool acceptAllChangesOnSuccess, CancellationToken cancellationToken = default)
    {
        RefuseAuditChanges();
        return base.SaveChangesAsync(acceptAllChangesOnSuccess, cancellationToken);
    }

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
            run.Property(r => r.TargetKind).HasConversion(kind => kind.Name, name => new TargetKind(name)).HasMaxLength(TargetKind.MaxNameLength);
            run.Property(r => r.Verdict).HasMaxLength(10);
            run.HasIndex(r => r.ProfileName);
            run.HasIndex(r => r.TargetKind);
            run.HasIndex(r => r.Status);
            run.HasIndex(r => r.QueuedAt);
            run.HasIndex(r => r.ProfileId);
            run.Property(r => r.ImportKey).HasMaxLength(200);
            run.HasIndex(r => r.ImportKey).IsUnique();
            run.HasMany(r => r.Seconds).WithOne().HasForeignKey(s => s.RunId).OnDelete(DeleteBehavior.Cascade);
            run.HasMany(r => r.Shards).WithOne().HasForeignKey(s => s.RunId).OnDelete(DeleteBehavior.Cascade);
            run.Property(r => r.AgentId).HasMaxLength(AgentEntity.MaxIdLength);
            run.Ignore(r => r.IsActive);
            run.HasIndex(r => new { r.SweepId, r.SweepStep });
        });

        modelBuilder.Entity<SweepEntity>(sweep =>
        {
            sweep.Property(s => s.Status).HasConversion<string>().HasMaxLength(20);
            sweep.Property(s => s.Name).HasMaxLength(200);
            sweep.HasIndex(s => s.Status);
            sweep.HasIndex(s => s.QueuedAt);
            sweep.HasMany<RunEntity>().WithOne().HasForeignKey(r => r.SweepId).OnDelete(DeleteBehavior.SetNull);
            sweep.Ignore(s => s.IsActive);
        });

        modelBuilder.Entity<RunSecondEntity>(second => second.HasKey(s => new { s.RunId, s.Index }));

        modelBuilder.Entity<RunDiagnosticEntity>(diagnostic =>
        {
            diagnostic.HasOne<RunEntity>().WithMany().HasForeignKey(d => d.RunId).OnDelete(DeleteBehavior.Cascade);
            diagnostic.HasIndex(d => new { d.RunId, d.Second });
            diagnostic.HasIndex(d => new { d.RunId, d.Shard, d.Number });
            diagnostic.Property(d => d.Outcome).HasConversion<string>().HasMaxLength(20);
            diagnostic.Property(d => d.Target).HasMaxLength(BenchEngine.Diagnostics.SlowRequest.MaxTargetLength);
            diagnostic.Property(d => d.Summary).HasMaxLength(BenchEngine.Diagnostics.SlowRequest.MaxSummaryLength);
            diagnostic.Property(d => d.Text).HasMaxLength(BenchEngine.Diagnostics.DiagnosticsOptions.MaxTextLength);
        });

        modelBuilder.Entity<RunShardEntity>(shard =>
        {
            shard.HasKey(s => new { s.RunId, s.Index });
            shard.Property(s => s.Status).HasConversion<string>().HasMaxLength(20);
            shard.Property(s => s.AgentId).HasMaxLength(AgentEntity.MaxIdLength);
            shard.Property(s => s.AgentName).HasMaxLength(100);
            shard.HasIndex(s => new { s.AgentId, s.Status });
            shard.Ignore(s => s.IsActive);
        });

        modelBuilder.Entity<RunShardSecondEntity>(second =>
        {
            second.HasKey(s => new { s.RunId, s.Shard, s.Index });
            second.HasIndex(s => new { s.RunId, s.Index });
        });

        modelBuilder.Entity<AgentEntity>(agent =>
        {
            agent.Property(a => a.Id).HasMaxLength(AgentEntity.MaxIdLength);
            agent.Property(a => a.Name).HasMaxLength(100);
            agent.Property(a => a.Role).HasMaxLength(10);
            agent.Property(a => a.Region).HasMaxLength(100);
            agent.Property(a => a.InstanceId).HasMaxLength(100);
            agent.Property(a => a.Version).HasMaxLength(50);
            agent.HasIndex(a => a.LastHeartbeatAt);
            agent.Ignore(a => a.Queue);
        });

        modelBuilder.Entity<StoredSecret>(secret =>
        {
            secret.HasKey(s => s.Name);
            secret.Property(s => s.Endpoint).HasMaxLength(300);
        });

        modelBuilder.Entity<UserEntity>(user =>
        {
            user.Property(u => u.Id).HasMaxLength(300);
            user.Property(u => u.Name).HasMaxLength(200);
            user.Property(u => u.Role).HasMaxLength(10);
            user.Property(u => u.Source).HasMaxLength(20);
        });

        modelBuilder.Entity<InvitationEntity>(invitation =>
        {
            invitation.Property(i => i.Name).HasMaxLength(200);
            invitation.Property(i => i.Role).HasMaxLength(10);
            invitation.Property(i => i.TokenHash).HasMaxLength(64);
            invitation.Property(i => i.CreatedBy).HasMaxLength(300);
            invitation.HasIndex(i => i.TokenHash).IsUnique();
        });

        modelBuilder.Entity<ApiTokenEntity>(token =>
        {
            token.Property(t => t.UserId).HasMaxLength(300);
            token.Property(t => t.Name).HasMaxLength(100);
            token.Property(t => t.Role).HasMaxLength(10);
            token.Property(t => t.Prefix).HasMaxLength(16);
            token.Property(t => t.TokenHash).HasMaxLength(64);
            token.HasIndex(t => t.TokenHash).IsUnique();
            token.HasIndex(t => t.UserId);
        });

        modelBuilder.Entity<SessionEntity>(session =>
        {
            session.Property(s => s.Id).HasMaxLength(SessionEntity.MaxIdLength);
            session.Property(s => s.UserId).HasMaxLength(300);
            session.HasIndex(s => s.UserId);
            session.HasIndex(s => s.ExpiresAt);
        });

        modelBuilder.Entity<UploadedFileEntity>(file =>
        {
            file.Property(f => f.DisplayName).HasMaxLength(UploadedFileEntity.MaxDisplayNameLength);
            file.Property(f => f.StoredName).HasMaxLength(64);
            file.Property(f => f.Sha256).HasMaxLength(64);
            file.Property(f => f.UploadedBy).HasMaxLength(300);
            file.HasIndex(f => f.StoredName).IsUnique();
        });

        modelBuilder.Entity<AuditEntryEntity>(entry =>
        {
            entry.Property(e => e.UserId).HasMaxLength(300);
            entry.Property(e => e.UserName).HasMaxLength(200);
            entry.Property(e => e.Role).HasMaxLength(10);
            entry.Property(e => e.Via).HasMaxLength(200);
            entry.Property(e => e.RemoteIp).HasMaxLength(64);
            entry.Property(e => e.Action).HasMaxLength(40);
            entry.Property(e => e.Subject).HasMaxLength(400);
            entry.Property(e => e.Endpoint).HasMaxLength(300);
            entry.HasIndex(e => e.At);
            entry.HasIndex(e => e.Action);
            entry.HasIndex(e => e.UserId);
        });

        modelBuilder.Entity<InstallationSettingsEntity>(settings =>
        {
            settings.Property(s => s.Id).ValueGeneratedNever();
            settings.Property(s => s.UpdatedBy).HasMaxLength(200);
        });

        modelBuilder.Entity<LaunchPauseEntity>(pause =>
        {
            pause.Property(p => p.Id).ValueGeneratedNever();
            pause.Property(p => p.ChangedBy).HasMaxLength(200);
            pause.Property(p => p.Reason).HasMaxLength(500);
        });
    }

    private void RefuseAuditChanges()
    {
        if (ChangeTracker.Entries<AuditEntryEntity>().Any(e => e.State is EntityState.Modified or EntityState.Deleted))
        {
            throw new InvalidOperationException("The audit log is append-only: its entries are never changed or removed.");
        }
    }
}
