using Microsoft.EntityFrameworkCore.Migrations;

#nullable disable

namespace BenchWeb.Data.Migrations
{
    /// <inheritdoc />
    public partial class Issue9Measurement : Migration
    {
        /// <inheritdoc />
        protected override void Up(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.AlterColumn<double>(
                name: "LatencyP99Ms",
                table: "RunSeconds",
                type: "REAL",
                nullable: true,
                oldClrType: typeof(double),
                oldType: "REAL");

            migrationBuilder.AlterColumn<double>(
                name: "LatencyP95Ms",
                table: "RunSeconds",
                type: "REAL",
                nullable: true,
                oldClrType: typeof(double),
                oldType: "REAL");

            migrationBuilder.AlterColumn<double>(
                name: "LatencyP50Ms",
                table: "RunSeconds",
                type: "REAL",
                nullable: true,
                oldClrType: typeof(double),
                oldType: "REAL");

            migrationBuilder.AlterColumn<double>(
                name: "LatencyMaxMs",
                table: "RunSeconds",
                type: "REAL",
                nullable: true,
                oldClrType: typeof(double),
                oldType: "REAL");

            migrationBuilder.AddColumn<long>(
                name: "Dropped",
                table: "RunSeconds",
                type: "INTEGER",
                nullable: false,
                defaultValue: 0L);

            migrationBuilder.AddColumn<long>(
                name: "GivenUp",
                table: "RunSeconds",
                type: "INTEGER",
                nullable: false,
                defaultValue: 0L);

            migrationBuilder.AddColumn<long>(
                name: "Issued",
                table: "RunSeconds",
                type: "INTEGER",
                nullable: false,
                defaultValue: 0L);

            migrationBuilder.AddColumn<bool>(
                name: "ProvisionedAutoscale",
                table: "Runs",
                type: "INTEGER",
                nullable: false,
                defaultValue: false);

            migrationBuilder.AddColumn<bool>(
                name: "RequestUnitsReported",
                table: "Runs",
                type: "INTEGER",
                nullable: true);
        }

        /// <inheritdoc />
        protected override void Down(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.DropColumn(
                name: "Dropped",
                table: "RunSeconds");

            migrationBuilder.DropColumn(
                name: "GivenUp",
                table: "RunSeconds");

            migrationBuilder.DropColumn(
                name: "Issued",
                table: "RunSeconds");

            migrationBuilder.DropColumn(
                name: "ProvisionedAutoscale",
                table: "Runs");

            migrationBuilder.DropColumn(
                name: "RequestUnitsReported",
                table: "Runs");

            migrationBuilder.AlterColumn<double>(
                name: "LatencyP99Ms",
                table: "RunSeconds",
                type: "REAL",
                nullable: false,
                defaultValue: 0.0,
                oldClrType: typeof(double),
                oldType: "REAL",
                oldNullable: true);

            migrationBuilder.AlterColumn<double>(
                name: "LatencyP95Ms",
                table: "RunSeconds",
                type: "REAL",
                nullable: false,
                defaultValue: 0.0,
                oldClrType: typeof(double),
                oldType: "REAL",
                oldNullable: true);

            migrationBuilder.AlterColumn<double>(
                name: "LatencyP50Ms",
                table: "RunSeconds",
                type: "REAL",
                nullable: false,
                defaultValue: 0.0,
                oldClrType: typeof(double),
                oldType: "REAL",
                oldNullable: true);

            migrationBuilder.AlterColumn<double>(
                name: "LatencyMaxMs",
                table: "RunSeconds",
                type: "REAL",
                nullable: false,
                defaultValue: 0.0,
                oldClrType: typeof(double),
                oldType: "REAL",
                oldNullable: true);
        }
    }
}
