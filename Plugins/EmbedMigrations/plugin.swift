import Foundation
import PackagePlugin

/// Turns the package's top-level `Migrations/*.sql` into Swift source compiled into the target,
/// so the built binary carries its migrations and works from any directory. Because the files
/// are declared as the command's inputs, editing, adding or removing one rebuilds the target:
/// a binary whose embedded migrations differ from `Migrations/` cannot be built unnoticed.
@main
struct EmbedMigrations: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = context.package.directoryURL.appending(path: "Migrations")
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            // schema.sql is generated from the migrations for reviewers; it is not one of them.
            .filter { $0.pathExtension == "sql" && $0.lastPathComponent != "schema.sql" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedMigrations.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(files.count) migrations from Migrations/",
                executable: try context.tool(named: "EmbedMigrationsTool").url,
                arguments: [output.path] + files.map(\.path),
                inputFiles: files + [folder],
                outputFiles: [output]
            ),
        ]
    }
}
