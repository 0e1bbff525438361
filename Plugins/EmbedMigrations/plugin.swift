import Foundation
import PackagePlugin

/// Turns the package's `Migrations/<engine>/*.sql` (one folder per engine: `sqlite`, `postgres`)
/// into Swift source compiled into the target, so the built binary carries its migrations and
/// works from any directory. Because the files are declared as the command's inputs, editing,
/// adding or removing one rebuilds the target: a binary whose embedded migrations differ from
/// `Migrations/` cannot be built unnoticed.
@main
struct EmbedMigrations: BuildToolPlugin {
    /// The engines, each a folder of `Migrations/` and a list in the generated source.
    static let engines = ["sqlite", "postgres"]

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = context.package.directoryURL.appending(path: "Migrations")
        var files: [URL] = []
        var folders: [URL] = []
        for engine in Self.engines {
            let folder = root.appending(path: engine)
            folders.append(folder)
            files += try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
                // schema.sql is generated from the migrations for reviewers; it is not one of them.
                .filter { $0.pathExtension == "sql" && $0.lastPathComponent != "schema.sql" }
                .sorted { $0.lastPathComponent < $1.lastPathComponent }
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedMigrations.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(files.count) migrations from Migrations/{\(Self.engines.joined(separator: ","))}/",
                executable: try context.tool(named: "EmbedMigrationsTool").url,
                arguments: [output.path] + files.map(\.path),
                inputFiles: files + folders,
                outputFiles: [output]
            ),
        ]
    }
}
