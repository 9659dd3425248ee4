using Microsoft.EntityFrameworkCore.Migrations;

#nullable disable

namespace BenchWeb.Data.Migrations
{
    public partial class RunHistory : Migration
    {
        protected override void Up(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.AddColumn<double>(
                name: "AverageThroughput",
                table: "Runs",
                type: "REAL",
                nullable: true);

            migrationBuilder.AddColumn<double>(
                name: "ElapsedSeconds",
                table: "Runs",
                type: "REAL",
                nullable: true);

            migrationBuilder.AddColumn<long>(
                name: "ImportedAt",
                table: "Runs",
                type: "INTEGER",
                nullable: true);

            migrationBuilder.AddColumn<string>(
                name: "ImportedFrom",
                table: "Runs",
                type: "TEXT",
                nullable: true);

            migrationBuilder.AddColumn<string>(
                name: "Notes",
                table: "Runs",
                type: "TEXT",
                nullable: true);

            migrationBuilder.AddColumn<double>(
                name: "P99LatencyMs",
                table: "Runs",
                type: "REAL",
                nullable: true);

            migrationBuilder.AddColumn<int>(
                name: "SteadyStateFirst",
                table: "Runs",
                type: "INTEGER",
                nullable: true);

            migrationBuilder.AddColumn<int>(
                name: "SteadyStateLast",
                table: "Runs",
                type: "INTEGER",
                nullable: true);

            migrationBuilder.AddColumn<string>(
                name: "Tags",
                table: "Runs",
                type: "TEXT",
                nullable: true);

            migrationBuilder.AddColumn<string>(
                name: "TargetKind",
                table: "Runs",
                type: "TEXT",
                maxLength: 20,
                nullable: false,
                defaultValue: "Simulated");

            migrationBuilder.AddColumn<double>(
                name: "ThrottledFraction",
                table: "Runs",
                type: "REAL",
                nullable: true);

            migrationBuilder.AddColumn<string>(
                name: "Verdict",
                table: "Runs",
                type: "TEXT",
                maxLength: 10,
                nullable: true);

            migrationBuilder.AddColumn<string>(
                name: "VerdictJson",
                table: "Runs",
                type: "TEXT",
                nullable: true);

            migrationBuilder.CreateIndex(
                name: "IX_Runs_ProfileName",
                table: "Runs",
                column: "ProfileName");

            migrationBuilder.CreateIndex(
                name: "IX_Runs_TargetKind",
                table: "Runs",
                column: "TargetKind");

            // Runs saved before these columns existed: take the figures from their JSON.
            migrationBuilder.Sql("UPDATE Runs SET TargetKind = json_extract(PlanJson, '$.target.kind') WHERE json_extract(PlanJson, '$.target.kind') IS NOT NULL;");
            migrationBuilder.Sql("UPDATE Runs SET AverageThroughput = json_extract(SummaryJson, '$.averageThroughput'), P99LatencyMs = json_extract(SummaryJson, '$.latency.p99Ms'), ThrottledFraction = json_extract(SummaryJson, '$.throttledFraction') WHERE SummaryJson IS NOT NULL;");
        }

        protected override void Down(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.DropIndex(
                name: "IX_Runs_ProfileName",
                table: "Runs");

            migrationBuilder.DropIndex(
                name: "IX_Runs_TargetKind",
                table: "Runs");

            migrationBuilder.DropColumn(
                name: "AverageThroughput",
                table: "Runs");

            migrationBuilder.DropColumn(
                name: "ElapsedSeconds",
                table: "Runs");

            migrationBuilder.DropColumn(
                name: "ImportedAt",
                table: "Runs");

            migrationBuilder.DropColumn(
                name: "ImportedFrom",
                table: "Runs");

            migrationBuilder.DropColumn(
                name: "Notes",
                table: "Runs");

            migrationBuilder.DropColumn(
                name: "P99LatencyMs",
                table: "Runs");

            migrationBuilder.DropColumn(
                name: "SteadyStateFirst",
                table: "Runs");

            migrationBuilder.DropColumn(
                name: "SteadyStateLast",
                table: "Runs");

            migrationBuilder.DropColumn(
                name: "Tags",
                table: "Runs");

            migrationBuilder.DropColumn(
                name: "TargetKind",
                table: "Runs");

            migrationBuilder.DropColumn(
                name: "ThrottledFraction",
                table: "Runs");

            migrationBuilder.DropColumn(
                name: "Verdict",
                table: "Runs");

            migrationBuilder.DropColumn(
                name: "VerdictJson",
                table: "Runs");
        }
    }
}
