using Microsoft.EntityFrameworkCore.Migrations;
using Npgsql.EntityFrameworkCore.PostgreSQL.Metadata;

#nullable disable

namespace BenchWeb.Data.Migrations.PostgreSql
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
                type: "bigint",
                nullable: true);

            migrationBuilder.AddColumn<int>(
                name: "SweepStep",
                table: "Runs",
                type: "integer",
                nullable: true);

            migrationBuilder.CreateTable(
                name: "Sweeps",
                columns: table => new
                {
                    Id = table.Column<long>(type: "bigint", nullable: false)
                        .Annotation("Npgsql:ValueGenerationStrategy", NpgsqlValueGenerationStrategy.IdentityByDefaultColumn),
                    ProfileId = table.Column<long>(type: "bigint", nullable: true),
                    Name = table.Column<string>(type: "character varying(200)", maxLength: 200, nullable: false),
                    PlanJson = table.Column<string>(type: "text", nullable: false),
                    SweepJson = table.Column<string>(type: "text", nullable: false),
                    Status = table.Column<string>(type: "character varying(20)", maxLength: 20, nullable: false),
                    QueuedAt = table.Column<long>(type: "bigint", nullable: false),
                    StartedAt = table.Column<long>(type: "bigint", nullable: true),
                    EndedAt = table.Column<long>(type: "bigint", nullable: true),
                    CancelRequestedAt = table.Column<long>(type: "bigint", nullable: true),
                    JobId = table.Column<string>(type: "text", nullable: true),
                    LaunchedByJson = table.Column<string>(type: "text", nullable: true),
                    StopReason = table.Column<string>(type: "text", nullable: true),
                    KneeJson = table.Column<string>(type: "text", nullable: true)
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
