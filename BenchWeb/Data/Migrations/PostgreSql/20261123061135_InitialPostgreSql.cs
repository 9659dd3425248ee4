using Microsoft.EntityFrameworkCore.Migrations;
using Npgsql.EntityFrameworkCore.PostgreSQL.Metadata;

#nullable disable

namespace BenchWeb.Data.Migrations.PostgreSql
{
    /// <inheritdoc />
    public partial class InitialPostgreSql : Migration
    {
        /// <inheritdoc />
        protected override void Up(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.CreateTable(
                name: "Agents",
                columns: table => new
                {
                    Id = table.Column<string>(type: "character varying(40)", maxLength: 40, nullable: false),
                    Name = table.Column<string>(type: "character varying(100)", maxLength: 100, nullable: false),
                    Role = table.Column<string>(type: "character varying(10)", maxLength: 10, nullable: false),
                    Cores = table.Column<int>(type: "integer", nullable: false),
                    MemoryBytes = table.Column<long>(type: "bigint", nullable: false),
                    Region = table.Column<string>(type: "character varying(100)", maxLength: 100, nullable: true),
                    InstanceId = table.Column<string>(type: "character varying(100)", maxLength: 100, nullable: true),
                    Version = table.Column<string>(type: "character varying(50)", maxLength: 50, nullable: true),
                    StartedAt = table.Column<long>(type: "bigint", nullable: false),
                    LastHeartbeatAt = table.Column<long>(type: "bigint", nullable: false),
                    StoppedAt = table.Column<long>(type: "bigint", nullable: true)
                },
                constraints: table =>
                {
                    table.PrimaryKey("PK_Agents", x => x.Id);
                });

            migrationBuilder.CreateTable(
                name: "ApiTokens",
                columns: table => new
                {
                    Id = table.Column<long>(type: "bigint", nullable: false)
                        .Annotation("Npgsql:ValueGenerationStrategy", NpgsqlValueGenerationStrategy.IdentityByDefaultColumn),
                    UserId = table.Column<string>(type: "character varying(300)", maxLength: 300, nullable: false),
                    Name = table.Column<string>(type: "character varying(100)", maxLength: 100, nullable: false),
                    Role = table.Column<string>(type: "character varying(10)", maxLength: 10, nullable: false),
                    Prefix = table.Column<string>(type: "character varying(16)", maxLength: 16, nullable: false),
                    TokenHash = table.Column<string>(type: "character varying(64)", maxLength: 64, nullable: false),
                    CreatedAt = table.Column<long>(type: "bigint", nullable: false),
                    ExpiresAt = table.Column<long>(type: "bigint", nullable: true),
                    LastUsedAt = table.Column<long>(type: "bigint", nullable: true),
                    RevokedAt = table.Column<long>(type: "bigint", nullable: true)
                },
                constraints: table =>
                {
                    table.PrimaryKey("PK_ApiTokens", x => x.Id);
                });

            migrationBuilder.CreateTable(
                name: "AuditEntries",
                columns: table => new
                {
                    Id = table.Column<long>(type: "bigint", nullable: false)
                        .Annotation("Npgsql:ValueGenerationStrategy", NpgsqlValueGenerationStrategy.IdentityByDefaultColumn),
                    At = table.Column<long>(type: "bigint", nullable: false),
                    UserId = table.Column<string>(type: "character varying(300)", maxLength: 300, nullable: false),
                    UserName = table.Column<string>(type: "character varying(200)", maxLength: 200, nullable: false),
                    Role = table.Column<string>(type: "character varying(10)", maxLength: 10, nullable: false),
                    Via = table.Column<string>(type: "character varying(200)", maxLength: 200, nullable: false),
                    RemoteIp = table.Column<string>(type: "character varying(64)", maxLength: 64, nullable: true),
                    Action = table.Column<string>(type: "character varying(40)", maxLength: 40, nullable: false),
                    Subject = table.Column<string>(type: "character varying(400)", maxLength: 400, nullable: false),
                    Details = table.Column<string>(type: "text", nullable: true),
                    Endpoint = table.Column<string>(type: "character varying(300)", maxLength: 300, nullable: true)
                },
                constraints: table =>
                {
                    table.PrimaryKey("PK_AuditEntries", x => x.Id);
                });

            migrationBuilder.CreateTable(
                name: "DataProtectionKeys",
                columns: table => new
                {
                    Id = table.Column<int>(type: "integer", nullable: false)
                        .Annotation("Npgsql:ValueGenerationStrategy", NpgsqlValueGenerationStrategy.IdentityByDefaultColumn),
                    FriendlyName = table.Column<string>(type: "text", nullable: true),
                    Xml = table.Column<string>(type: "text", nullable: true)
                },
                constraints: table =>
                {
                    table.PrimaryKey("PK_DataProtectionKeys", x => x.Id);
                });

            migrationBuilder.CreateTable(
                name: "InstallationSettings",
                columns: table => new
                {
                    Id = table.Column<int>(type: "integer", nullable: false),
                    MaxDurationSeconds = table.Column<double>(type: "double precision", nullable: true),
                    MaxDocuments = table.Column<long>(type: "bigint", nullable: true),
                    MaxConcurrency = table.Column<int>(type: "integer", nullable: true),
                    MaxRatePerSecond = table.Column<double>(type: "double precision", nullable: true),
                    MaxRequestUnits = table.Column<int>(type: "integer", nullable: true),
                    EndpointPatterns = table.Column<string>(type: "text", nullable: true),
                    UpdatedAt = table.Column<long>(type: "bigint", nullable: true),
                    UpdatedBy = table.Column<string>(type: "character varying(200)", maxLength: 200, nullable: true)
                },
                constraints: table =>
                {
                    table.PrimaryKey("PK_InstallationSettings", x => x.Id);
                });

            migrationBuilder.CreateTable(
                name: "Invitations",
                columns: table => new
                {
                    Id = table.Column<long>(type: "bigint", nullable: false)
                        .Annotation("Npgsql:ValueGenerationStrategy", NpgsqlValueGenerationStrategy.IdentityByDefaultColumn),
                    Name = table.Column<string>(type: "character varying(200)", maxLength: 200, nullable: false),
                    Role = table.Column<string>(type: "character varying(10)", maxLength: 10, nullable: false),
                    TokenHash = table.Column<string>(type: "character varying(64)", maxLength: 64, nullable: false),
                    CreatedBy = table.Column<string>(type: "character varying(300)", maxLength: 300, nullable: false),
                    CreatedAt = table.Column<long>(type: "bigint", nullable: false),
                    ExpiresAt = table.Column<long>(type: "bigint", nullable: false),
                    UsedAt = table.Column<long>(type: "bigint", nullable: true)
                },
                constraints: table =>
                {
                    table.PrimaryKey("PK_Invitations", x => x.Id);
                });

            migrationBuilder.CreateTable(
                name: "LaunchPauses",
                columns: table => new
                {
                    Id = table.Column<int>(type: "integer", nullable: false),
                    Paused = table.Column<bool>(type: "boolean", nullable: false),
                    ChangedAt = table.Column<long>(type: "bigint", nullable: false),
                    ChangedBy = table.Column<string>(type: "character varying(200)", maxLength: 200, nullable: false),
                    Reason = table.Column<string>(type: "character varying(500)", maxLength: 500, nullable: true)
                },
                constraints: table =>
                {
                    table.PrimaryKey("PK_LaunchPauses", x => x.Id);
                });

            migrationBuilder.CreateTable(
                name: "Profiles",
                columns: table => new
                {
                    Id = table.Column<long>(type: "bigint", nullable: false)
                        .Annotation("Npgsql:ValueGenerationStrategy", NpgsqlValueGenerationStrategy.IdentityByDefaultColumn),
                    Name = table.Column<string>(type: "character varying(200)", maxLength: 200, nullable: false),
                    Description = table.Column<string>(type: "text", nullable: true),
                    PlanJson = table.Column<string>(type: "text", nullable: false),
                    PresetId = table.Column<string>(type: "text", nullable: true),
                    CreatedAt = table.Column<long>(type: "bigint", nullable: false),
                    UpdatedAt = table.Column<long>(type: "bigint", nullable: false)
                },
                constraints: table =>
                {
                    table.PrimaryKey("PK_Profiles", x => x.Id);
                });

            migrationBuilder.CreateTable(
                name: "Runs",
                columns: table => new
                {
                    Id = table.Column<long>(type: "bigint", nullable: false)
                        .Annotation("Npgsql:ValueGenerationStrategy", NpgsqlValueGenerationStrategy.IdentityByDefaultColumn),
                    ProfileId = table.Column<long>(type: "bigint", nullable: true),
                    ProfileName = table.Column<string>(type: "character varying(200)", maxLength: 200, nullable: false),
                    PresetId = table.Column<string>(type: "text", nullable: true),
                    PlanJson = table.Column<string>(type: "text", nullable: false),
                    Status = table.Column<string>(type: "character varying(20)", maxLength: 20, nullable: false),
                    TargetKind = table.Column<string>(type: "character varying(20)", maxLength: 20, nullable: false),
                    QueuedAt = table.Column<long>(type: "bigint", nullable: false),
                    StartedAt = table.Column<long>(type: "bigint", nullable: true),
                    EndedAt = table.Column<long>(type: "bigint", nullable: true),
                    CancelRequestedAt = table.Column<long>(type: "bigint", nullable: true),
                    JobId = table.Column<string>(type: "text", nullable: true),
                    DurationCapSeconds = table.Column<double>(type: "double precision", nullable: true),
                    DocumentCap = table.Column<long>(type: "bigint", nullable: true),
                    TargetDescription = table.Column<string>(type: "text", nullable: true),
                    TargetIsModel = table.Column<bool>(type: "boolean", nullable: false),
                    ProvisionedRequestUnits = table.Column<double>(type: "double precision", nullable: true),
                    ProvisionedAutoscale = table.Column<bool>(type: "boolean", nullable: false),
                    RequestUnitsReported = table.Column<bool>(type: "boolean", nullable: true),
                    EnvironmentJson = table.Column<string>(type: "text", nullable: true),
                    SummaryJson = table.Column<string>(type: "text", nullable: true),
                    StopReason = table.Column<string>(type: "text", nullable: true),
                    FailureReason = table.Column<string>(type: "text", nullable: true),
                    FirstError = table.Column<string>(type: "text", nullable: true),
                    AbandonedRequests = table.Column<long>(type: "bigint", nullable: false),
                    ElapsedSeconds = table.Column<double>(type: "double precision", nullable: true),
                    AverageThroughput = table.Column<double>(type: "double precision", nullable: true),
                    P99LatencyMs = table.Column<double>(type: "double precision", nullable: true),
                    ThrottledFraction = table.Column<double>(type: "double precision", nullable: true),
                    Verdict = table.Column<string>(type: "character varying(10)", maxLength: 10, nullable: true),
                    VerdictJson = table.Column<string>(type: "text", nullable: true),
                    Notes = table.Column<string>(type: "text", nullable: true),
                    Tags = table.Column<string>(type: "text", nullable: true),
                    SteadyStateFirst = table.Column<int>(type: "integer", nullable: true),
                    SteadyStateLast = table.Column<int>(type: "integer", nullable: true),
                    ImportedAt = table.Column<long>(type: "bigint", nullable: true),
                    ImportedFrom = table.Column<string>(type: "text", nullable: true),
                    ImportKey = table.Column<string>(type: "character varying(200)", maxLength: 200, nullable: true),
                    AgentId = table.Column<string>(type: "character varying(40)", maxLength: 40, nullable: true),
                    ShardCount = table.Column<int>(type: "integer", nullable: false),
                    StartAt = table.Column<long>(type: "bigint", nullable: true)
                },
                constraints: table =>
                {
                    table.PrimaryKey("PK_Runs", x => x.Id);
                });

            migrationBuilder.CreateTable(
                name: "RunShardSeconds",
                columns: table => new
                {
                    RunId = table.Column<long>(type: "bigint", nullable: false),
                    Shard = table.Column<int>(type: "integer", nullable: false),
                    Index = table.Column<int>(type: "integer", nullable: false),
                    SnapshotJson = table.Column<string>(type: "text", nullable: false),
                    LatencyHistogram = table.Column<byte[]>(type: "bytea", nullable: true),
                    ClosedAt = table.Column<long>(type: "bigint", nullable: false)
                },
                constraints: table =>
                {
                    table.PrimaryKey("PK_RunShardSeconds", x => new { x.RunId, x.Shard, x.Index });
                });

            migrationBuilder.CreateTable(
                name: "Secrets",
                columns: table => new
                {
                    Name = table.Column<string>(type: "text", nullable: false),
                    ProtectedValue = table.Column<string>(type: "text", nullable: false),
                    UpdatedAt = table.Column<long>(type: "bigint", nullable: false),
                    Endpoint = table.Column<string>(type: "character varying(300)", maxLength: 300, nullable: true)
                },
                constraints: table =>
                {
                    table.PrimaryKey("PK_Secrets", x => x.Name);
                });

            migrationBuilder.CreateTable(
                name: "UploadedFiles",
                columns: table => new
                {
                    Id = table.Column<long>(type: "bigint", nullable: false)
                        .Annotation("Npgsql:ValueGenerationStrategy", NpgsqlValueGenerationStrategy.IdentityByDefaultColumn),
                    DisplayName = table.Column<string>(type: "character varying(200)", maxLength: 200, nullable: false),
                    StoredName = table.Column<string>(type: "character varying(64)", maxLength: 64, nullable: false),
                    SizeBytes = table.Column<long>(type: "bigint", nullable: false),
                    Sha256 = table.Column<string>(type: "character varying(64)", maxLength: 64, nullable: false),
                    ColumnCount = table.Column<int>(type: "integer", nullable: false),
                    RowCount = table.Column<long>(type: "bigint", nullable: false),
                    UploadedBy = table.Column<string>(type: "character varying(300)", maxLength: 300, nullable: false),
                    UploadedAt = table.Column<long>(type: "bigint", nullable: false)
                },
                constraints: table =>
                {
                    table.PrimaryKey("PK_UploadedFiles", x => x.Id);
                });

            migrationBuilder.CreateTable(
                name: "Users",
                columns: table => new
                {
                    Id = table.Column<string>(type: "character varying(300)", maxLength: 300, nullable: false),
                    Name = table.Column<string>(type: "character varying(200)", maxLength: 200, nullable: false),
                    Role = table.Column<string>(type: "character varying(10)", maxLength: 10, nullable: false),
                    Source = table.Column<string>(type: "character varying(20)", maxLength: 20, nullable: false),
                    Disabled = table.Column<bool>(type: "boolean", nullable: false),
                    CreatedAt = table.Column<long>(type: "bigint", nullable: false),
                    LastSignInAt = table.Column<long>(type: "bigint", nullable: true)
                },
                constraints: table =>
                {
                    table.PrimaryKey("PK_Users", x => x.Id);
                });

            migrationBuilder.CreateTable(
                name: "RunSeconds",
                columns: table => new
                {
                    RunId = table.Column<long>(type: "bigint", nullable: false),
                    Index = table.Column<int>(type: "integer", nullable: false),
                    ElapsedSeconds = table.Column<double>(type: "double precision", nullable: false),
                    DurationSeconds = table.Column<double>(type: "double precision", nullable: false),
                    Ok = table.Column<long>(type: "bigint", nullable: false),
                    OkRequests = table.Column<long>(type: "bigint", nullable: false),
                    Throttled = table.Column<long>(type: "bigint", nullable: false),
                    Errors = table.Column<long>(type: "bigint", nullable: false),
                    ErrorsByStatusJson = table.Column<string>(type: "text", nullable: true),
                    RequestUnits = table.Column<double>(type: "double precision", nullable: false),
                    Bytes = table.Column<long>(type: "bigint", nullable: false),
                    Issued = table.Column<long>(type: "bigint", nullable: false),
                    Dropped = table.Column<long>(type: "bigint", nullable: false),
                    GivenUp = table.Column<long>(type: "bigint", nullable: false),
                    LatencyP50Ms = table.Column<double>(type: "double precision", nullable: true),
                    LatencyP95Ms = table.Column<double>(type: "double precision", nullable: true),
                    LatencyP99Ms = table.Column<double>(type: "double precision", nullable: true),
                    LatencyMaxMs = table.Column<double>(type: "double precision", nullable: true),
                    InFlight = table.Column<long>(type: "bigint", nullable: false),
                    ClientCpuPercent = table.Column<double>(type: "double precision", nullable: false),
                    ClosedAt = table.Column<long>(type: "bigint", nullable: false)
                },
                constraints: table =>
                {
                    table.PrimaryKey("PK_RunSeconds", x => new { x.RunId, x.Index });
                    table.ForeignKey(
                        name: "FK_RunSeconds_Runs_RunId",
                        column: x => x.RunId,
                        principalTable: "Runs",
                        principalColumn: "Id",
                        onDelete: ReferentialAction.Cascade);
                });

            migrationBuilder.CreateTable(
                name: "RunShards",
                columns: table => new
                {
                    RunId = table.Column<long>(type: "bigint", nullable: false),
                    Index = table.Column<int>(type: "integer", nullable: false),
                    AgentId = table.Column<string>(type: "character varying(40)", maxLength: 40, nullable: false),
                    AgentName = table.Column<string>(type: "character varying(100)", maxLength: 100, nullable: false),
                    JobId = table.Column<string>(type: "text", nullable: true),
                    Status = table.Column<string>(type: "character varying(20)", maxLength: 20, nullable: false),
                    StartedAt = table.Column<long>(type: "bigint", nullable: true),
                    EndedAt = table.Column<long>(type: "bigint", nullable: true),
                    OffsetSeconds = table.Column<int>(type: "integer", nullable: false),
                    TargetDescription = table.Column<string>(type: "text", nullable: true),
                    EnvironmentJson = table.Column<string>(type: "text", nullable: true),
                    SummaryJson = table.Column<string>(type: "text", nullable: true),
                    LatencyHistogram = table.Column<byte[]>(type: "bytea", nullable: true),
                    StopReason = table.Column<string>(type: "text", nullable: true),
                    FailureReason = table.Column<string>(type: "text", nullable: true),
                    FirstError = table.Column<string>(type: "text", nullable: true),
                    AbandonedRequests = table.Column<long>(type: "bigint", nullable: false)
                },
                constraints: table =>
                {
                    table.PrimaryKey("PK_RunShards", x => new { x.RunId, x.Index });
                    table.ForeignKey(
                        name: "FK_RunShards_Runs_RunId",
                        column: x => x.RunId,
                        principalTable: "Runs",
                        principalColumn: "Id",
                        onDelete: ReferentialAction.Cascade);
                });

            migrationBuilder.CreateIndex(
                name: "IX_Agents_LastHeartbeatAt",
                table: "Agents",
                column: "LastHeartbeatAt");

            migrationBuilder.CreateIndex(
                name: "IX_ApiTokens_TokenHash",
                table: "ApiTokens",
                column: "TokenHash",
                unique: true);

            migrationBuilder.CreateIndex(
                name: "IX_ApiTokens_UserId",
                table: "ApiTokens",
                column: "UserId");

            migrationBuilder.CreateIndex(
                name: "IX_AuditEntries_Action",
                table: "AuditEntries",
                column: "Action");

            migrationBuilder.CreateIndex(
                name: "IX_AuditEntries_At",
                table: "AuditEntries",
                column: "At");

            migrationBuilder.CreateIndex(
                name: "IX_AuditEntries_UserId",
                table: "AuditEntries",
                column: "UserId");

            migrationBuilder.CreateIndex(
                name: "IX_Invitations_TokenHash",
                table: "Invitations",
                column: "TokenHash",
                unique: true);

            migrationBuilder.CreateIndex(
                name: "IX_Profiles_Name",
                table: "Profiles",
                column: "Name");

            migrationBuilder.CreateIndex(
                name: "IX_Runs_ImportKey",
                table: "Runs",
                column: "ImportKey",
                unique: true);

            migrationBuilder.CreateIndex(
                name: "IX_Runs_ProfileId",
                table: "Runs",
                column: "ProfileId");

            migrationBuilder.CreateIndex(
                name: "IX_Runs_ProfileName",
                table: "Runs",
                column: "ProfileName");

            migrationBuilder.CreateIndex(
                name: "IX_Runs_QueuedAt",
                table: "Runs",
                column: "QueuedAt");

            migrationBuilder.CreateIndex(
                name: "IX_Runs_Status",
                table: "Runs",
                column: "Status");

            migrationBuilder.CreateIndex(
                name: "IX_Runs_TargetKind",
                table: "Runs",
                column: "TargetKind");

            migrationBuilder.CreateIndex(
                name: "IX_RunShards_AgentId_Status",
                table: "RunShards",
                columns: new[] { "AgentId", "Status" });

            migrationBuilder.CreateIndex(
                name: "IX_RunShardSeconds_RunId_Index",
                table: "RunShardSeconds",
                columns: new[] { "RunId", "Index" });

            migrationBuilder.CreateIndex(
                name: "IX_UploadedFiles_StoredName",
                table: "UploadedFiles",
                column: "StoredName",
                unique: true);
        }

        /// <inheritdoc />
        protected override void Down(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.DropTable(
                name: "Agents");

            migrationBuilder.DropTable(
                name: "ApiTokens");

            migrationBuilder.DropTable(
                name: "AuditEntries");

            migrationBuilder.DropTable(
                name: "DataProtectionKeys");

            migrationBuilder.DropTable(
                name: "InstallationSettings");

            migrationBuilder.DropTable(
                name: "Invitations");

            migrationBuilder.DropTable(
                name: "LaunchPauses");

            migrationBuilder.DropTable(
                name: "Profiles");

            migrationBuilder.DropTable(
                name: "RunSeconds");

            migrationBuilder.DropTable(
                name: "RunShards");

            migrationBuilder.DropTable(
                name: "RunShardSeconds");

            migrationBuilder.DropTable(
                name: "Secrets");

            migrationBuilder.DropTable(
                name: "UploadedFiles");

            migrationBuilder.DropTable(
                name: "Users");

            migrationBuilder.DropTable(
                name: "Runs");
        }
    }
}
