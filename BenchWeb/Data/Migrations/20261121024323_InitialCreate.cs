using Microsoft.EntityFrameworkCore.Migrations;

#nullable disable

namespace BenchWeb.Data.Migrations
{
    public partial class InitialCreate : Migration
    {
        protected override void Up(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.CreateTable(
                name: "Profiles",
                columns: table => new
                {
                    Id = table.Column<long>(type: "INTEGER", nullable: false)
                        .Annotation("Sqlite:Autoincrement", true),
                    Name = table.Column<string>(type: "TEXT", maxLength: 200, nullable: false),
                    Description = table.Column<string>(type: "TEXT", nullable: true),
                    PlanJson = table.Column<string>(type: "TEXT", nullable: false),
                    PresetId = table.Column<string>(type: "TEXT", nullable: true),
                    CreatedAt = table.Column<long>(type: "INTEGER", nullable: false),
                    UpdatedAt = table.Column<long>(type: "INTEGER", nullable: false)
                },
                constraints: table =>
                {
                    table.PrimaryKey("PK_Profiles", x => x.Id);
                });

            migrationBuilder.CreateTable(
                name: "Runs",
                columns: table => new
                {
                    Id = table.Column<long>(type: "INTEGER", nullable: false)
                        .Annotation("Sqlite:Autoincrement", true),
                    ProfileId = table.Column<long>(type: "INTEGER", nullable: true),
                    ProfileName = table.Column<string>(type: "TEXT", maxLength: 200, nullable: false),
                    PresetId = table.Column<string>(type: "TEXT", nullable: true),
                    PlanJson = table.Column<string>(type: "TEXT", nullable: false),
                    Status = table.Column<string>(type: "TEXT", maxLength: 20, nullable: false),
                    QueuedAt = table.Column<long>(type: "INTEGER", nullable: false),
                    StartedAt = table.Column<long>(type: "INTEGER", nullable: true),
                    EndedAt = table.Column<long>(type: "INTEGER", nullable: true),
                    CancelRequestedAt = table.Column<long>(type: "INTEGER", nullable: true),
                    JobId = table.Column<string>(type: "TEXT", nullable: true),
                    TargetDescription = table.Column<string>(type: "TEXT", nullable: true),
                    TargetIsModel = table.Column<bool>(type: "INTEGER", nullable: false),
                    ProvisionedRequestUnits = table.Column<double>(type: "REAL", nullable: true),
                    EnvironmentJson = table.Column<string>(type: "TEXT", nullable: true),
                    SummaryJson = table.Column<string>(type: "TEXT", nullable: true),
                    StopReason = table.Column<string>(type: "TEXT", nullable: true),
                    FailureReason = table.Column<string>(type: "TEXT", nullable: true),
                    FirstError = table.Column<string>(type: "TEXT", nullable: true),
                    AbandonedRequests = table.Column<long>(type: "INTEGER", nullable: false)
                },
                constraints: table =>
                {
                    table.PrimaryKey("PK_Runs", x => x.Id);
                });

            migrationBuilder.CreateTable(
                name: "Secrets",
                columns: table => new
                {
                    Name = table.Column<string>(type: "TEXT", nullable: false),
                    ProtectedValue = table.Column<string>(type: "TEXT", nullable: false),
                    UpdatedAt = table.Column<long>(type: "INTEGER", nullable: false)
                },
                constraints: table =>
                {
                    table.PrimaryKey("PK_Secrets", x => x.Name);
                });

            migrationBuilder.CreateTable(
                name: "RunSeconds",
                columns: table => new
                {
                    RunId = table.Column<long>(type: "INTEGER", nullable: false),
                    Index = table.Column<int>(type: "INTEGER", nullable: false),
                    ElapsedSeconds = table.Column<double>(type: "REAL", nullable: false),
                    DurationSeconds = table.Column<double>(type: "REAL", nullable: false),
                    Ok = table.Column<long>(type: "INTEGER", nullable: false),
                    OkRequests = table.Column<long>(type: "INTEGER", nullable: false),
                    Throttled = table.Column<long>(type: "INTEGER", nullable: false),
                    Errors = table.Column<long>(type: "INTEGER", nullable: false),
                    ErrorsByStatusJson = table.Column<string>(type: "TEXT", nullable: true),
                    RequestUnits = table.Column<double>(type: "REAL", nullable: false),
                    Bytes = table.Column<long>(type: "INTEGER", nullable: false),
                    LatencyP50Ms = table.Column<double>(type: "REAL", nullable: false),
                    LatencyP95Ms = table.Column<double>(type: "REAL", nullable: false),
                    LatencyP99Ms = table.Column<double>(type: "REAL", nullable: false),
                    LatencyMaxMs = table.Column<double>(type: "REAL", nullable: false),
                    InFlight = table.Column<long>(type: "INTEGER", nullable: false),
                    ClientCpuPercent = table.Column<double>(type: "REAL", nullable: false),
                    ClosedAt = table.Column<long>(type: "INTEGER", nullable: false)
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

            migrationBuilder.CreateIndex(
                name: "IX_Profiles_Name",
                table: "Profiles",
                column: "Name");

            migrationBuilder.CreateIndex(
                name: "IX_Runs_ProfileId",
                table: "Runs",
                column: "ProfileId");

            migrationBuilder.CreateIndex(
                name: "IX_Runs_QueuedAt",
                table: "Runs",
                column: "QueuedAt");

            migrationBuilder.CreateIndex(
                name: "IX_Runs_Status",
                table: "Runs",
                column: "Status");
        }

        protected override void Down(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.DropTable(
                name: "Profiles");

            migrationBuilder.DropTable(
                name: "RunSeconds");

            migrationBuilder.DropTable(
                name: "Secrets");

            migrationBuilder.DropTable(
                name: "Runs");
        }
    }
}
