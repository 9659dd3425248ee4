using Microsoft.EntityFrameworkCore.Migrations;

#nullable disable

namespace BenchWeb.Data.Migrations.PostgreSql
{
    /// <inheritdoc />
    public partial class SweepMetadata : Migration
    {
        /// <inheritdoc />
        protected override void Up(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.AddColumn<string>(
                name: "MetadataJson",
                table: "Sweeps",
                type: "text",
                nullable: true);
        }

        /// <inheritdoc />
        protected override void Down(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.DropColumn(
                name: "MetadataJson",
                table: "Sweeps");
        }
    }
}
