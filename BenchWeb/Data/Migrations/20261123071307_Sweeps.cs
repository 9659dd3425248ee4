using Microsoft.EntityFrameworkCore.Migrations;

#nullable disable

namespace BenchWeb.Data.Migrations
{
    /// <inheritdoc />
    public partial class Sweeps : Migration
    {
        /// <inheritdoc />
        protected override void Up(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.AddColumn<long>(
                name: "SweepId",
                table: "Runs",
                type: "INTEGER",
                nullable: true);

            migrationBuilder.AddColumn<int>(
                name: "SweepStep",
                table: "Runs",
                type: "INTEGER",
                nullable: true);

            migrationBuilder.CreateTable(
                name: "Sweeps",
                columns: table => new
                {
                    Id = table.Column<long>(type: "INTEGER", nullable: false)
                        .Annotation("Sqlite:Autoincrement", true),
                    ProfileId = table.Column<long>(type: "INTEGER", nullable: true),
                    Name = table.Column<string>(type: "TEXT", maxLength: 200, nullable: false),
                    PlanJson = table.Column<string>(type: "TEXT", nullable: false),
                    SweepJson = table.Column<string>(type: "TEXT", nullable: false),
                    Status = table.Column<string>(type: "TEXT", maxLength: 20, nullable: false),
                    QueuedAt = table.Column<long>(type: "INTEGER", nullable: false),
                    StartedAt = table.Column<long>(type: "INTEGER", nullable: true),
                    EndedAt = table.Column<long>(type: "INTEGER", nullable: true),
                    CancelRequestedAt = table.Column<long>(type: "INTEGER", nullable: true),
                    JobId = table.Column<string>(type: "TEXT", nullable: true),
                    LaunchedByJson = table.Column<string>(type: "TEXT", nullable: true),
                    StopReason = table.Column<string>(type: "TEXT", nullable: true),
                    KneeJson = table.Column<string>(type: "TEXT", nullable: true)
                },
                constraints: table =>
                {
                    table.PrimaryKey("PK_Sweeps", x => x.Id);
                });

            migrationBuilder.CreateIndex(
                name: "IX_Runs_SweepId_SweepStep",
                table: "Runs",
                columns: new[] { "SweepId", "SweepStep" });

            migrationBuilder.CreateIndex(
                name: "IX_Sweeps_QueuedAt",
                table: "Sweeps",
                column: "QueuedAt");

            migrationBuilder.CreateIndex(
                name: "IX_Sweeps_Status",
                table: "Sweeps",
                column: "Status");

            migrationBuilder.AddForeignKey(
                name: "FK_Runs_Sweeps_SweepId",
                table: "Runs",
                column: "SweepId",
                principalTable: "Sweeps",
                principalColumn: "Id",
                onDelete: ReferentialAction.SetNull);
        }

        /// <inheritdoc />
        protected override void Down(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.DropForeignKey(
                name: "FK_Runs_Sweeps_SweepId",
                table: "Runs");

            migrationBuilder.DropTable(
                name: "Sweeps");

            migrationBuilder.DropIndex(
                name: "IX_Runs_SweepId_SweepStep",
                table: "Runs");

            migrationBuilder.DropColumn(
                name: "SweepId",
                table: "Runs");

            migrationBuilder.DropColumn(
                name: "SweepStep",
                table: "Runs");
        }
    }
}
