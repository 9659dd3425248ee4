using Microsoft.EntityFrameworkCore.Migrations;

#nullable disable

namespace BenchWeb.Data.Migrations
{
    /// <inheritdoc />
    public partial class ClientHealth : Migration
    {
        /// <inheritdoc />
        protected override void Up(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.AddColumn<long>(
                name: "Abandoned",
                table: "RunSeconds",
                type: "INTEGER",
                nullable: false,
                defaultValue: 0L);

            migrationBuilder.AddColumn<long>(
                name: "AvailableMemoryMb",
                table: "RunSeconds",
                type: "INTEGER",
                nullable: true);

            migrationBuilder.AddColumn<int>(
                name: "ClientLimits",
                table: "RunSeconds",
                type: "INTEGER",
                nullable: true);

            migrationBuilder.AddColumn<double>(
                name: "ClockLagMs",
                table: "RunSeconds",
                type: "REAL",
                nullable: true);

            migrationBuilder.AddColumn<double>(
                name: "GcPauseMs",
                table: "RunSeconds",
                type: "REAL",
                nullable: true);

            migrationBuilder.AddColumn<long>(
                name: "GivenUpRequests",
                table: "RunSeconds",
                type: "INTEGER",
                nullable: false,
                defaultValue: 0L);

            migrationBuilder.AddColumn<double>(
                name: "HostCpuPercent",
                table: "RunSeconds",
                type: "REAL",
                nullable: true);

            migrationBuilder.AddColumn<long>(
                name: "NotStarted",
                table: "RunSeconds",
                type: "INTEGER",
                nullable: false,
                defaultValue: 0L);

            migrationBuilder.AddColumn<double>(
                name: "SchedulingLagMaxMs",
                table: "RunSeconds",
                type: "REAL",
                nullable: true);

            migrationBuilder.AddColumn<double>(
                name: "SchedulingLagP50Ms",
                table: "RunSeconds",
                type: "REAL",
                nullable: true);

            migrationBuilder.AddColumn<double>(
                name: "SchedulingLagP99Ms",
                table: "RunSeconds",
                type: "REAL",
                nullable: true);

            migrationBuilder.AddColumn<long>(
                name: "SentLate",
                table: "RunSeconds",
                type: "INTEGER",
                nullable: false,
                defaultValue: 0L);

            migrationBuilder.AddColumn<int>(
                name: "ThreadInjections",
                table: "RunSeconds",
                type: "INTEGER",
                nullable: true);

            migrationBuilder.AddColumn<long>(
                name: "ThreadPoolQueueMax",
                table: "RunSeconds",
                type: "INTEGER",
                nullable: true);

            migrationBuilder.AddColumn<int>(
                name: "ThreadPoolThreads",
                table: "RunSeconds",
                type: "INTEGER",
                nullable: true);
        }

        /// <inheritdoc />
        protected override void Down(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.DropColumn(
                name: "Abandoned",
                table: "RunSeconds");

            migrationBuilder.DropColumn(
                name: "AvailableMemoryMb",
                table: "RunSeconds");

            migrationBuilder.DropColumn(
                name: "ClientLimits",
                table: "RunSeconds");

            migrationBuilder.DropColumn(
                name: "ClockLagMs",
                table: "RunSeconds");

            migrationBuilder.DropColumn(
                name: "GcPauseMs",
                table: "RunSeconds");

            migrationBuilder.DropColumn(
                name: "GivenUpRequests",
                table: "RunSeconds");

            migrationBuilder.DropColumn(
                name: "HostCpuPercent",
                table: "RunSeconds");

            migrationBuilder.DropColumn(
                name: "NotStarted",
                table: "RunSeconds");

            migrationBuilder.DropColumn(
                name: "SchedulingLagMaxMs",
                table: "RunSeconds");

            migrationBuilder.DropColumn(
                name: "SchedulingLagP50Ms",
                table: "RunSeconds");

            migrationBuilder.DropColumn(
                name: "SchedulingLagP99Ms",
                table: "RunSeconds");

            migrationBuilder.DropColumn(
                name: "SentLate",
                table: "RunSeconds");

            migrationBuilder.DropColumn(
                name: "ThreadInjections",
                table: "RunSeconds");

            migrationBuilder.DropColumn(
                name: "ThreadPoolQueueMax",
                table: "RunSeconds");

            migrationBuilder.DropColumn(
                name: "ThreadPoolThreads",
                table: "RunSeconds");
        }
    }
}
