using Microsoft.EntityFrameworkCore.Migrations;

#nullable disable

namespace BenchWeb.Data.Migrations
{
    /// <inheritdoc />
    public partial class ImportIdentity : Migration
    {
        /// <inheritdoc />
        protected override void Up(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.AddColumn<string>(
                name: "ImportKey",
                table: "Runs",
                type: "TEXT",
                maxLength: 200,
                nullable: true);

            migrationBuilder.CreateIndex(
                name: "IX_Runs_ImportKey",
                table: "Runs",
                column: "ImportKey",
                unique: true);
        }

        /// <inheritdoc />
        protected override void Down(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.DropIndex(
                name: "IX_Runs_ImportKey",
                table: "Runs");

            migrationBuilder.DropColumn(
                name: "ImportKey",
                table: "Runs");
        }
    }
}
