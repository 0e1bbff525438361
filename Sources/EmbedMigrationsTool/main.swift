// Build-time tool run by the EmbedMigrations plugin:
//   EmbedMigrationsTool OUTPUT.swift FOLDER/FILE.sql...
// Writes a Swift file holding each migration's file name, exact text, checksum and transaction
// flag, one list per engine named after the file's folder (Migrations/sqlite/ -> `sqlite`,
// Migrations/postgres/ -> `postgres`). The last two are computed here, with the same MigrationScript functions the runner uses
// for a folder, so that a command's start-up does no hashing.
import Foundation
import MigrationChecksum

func swiftStringLiteral(_ text: String) -> String {
    var literal = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\\": literal += "\\\\"
        case "\"": literal += "\\\""
        case "\n": literal += "\\n"
        case "\r": literal += "\\r"
        case "\t": literal += "\\t"
        case _ where scalar.value < 0x20 || scalar.value > 0x7E:
            literal += "\\u{\(String(scalar.value, radix: 16))}"
        default: literal.unicodeScalars.append(scalar)
        }
    }
    return literal + "\""
}

let arguments = CommandLine.arguments.dropFirst()
guard let outputPath = arguments.first else {
    FileHandle.standardError.write(Data("usage: EmbedMigrationsTool OUTPUT.swift FOLDER/FILE.sql...\n".utf8))
    exit(64)
}
var source = """
// Generated at build time by EmbedMigrationsTool from the package's Migrations/ folder.
// Do not edit: change the .sql files instead.

extension EmbeddedMigrations {

"""
let byEngine = Dictionary(grouping: arguments.dropFirst().map { URL(fileURLWithPath: $0) }) {
    $0.deletingLastPathComponent().lastPathComponent
}
for engine in byEngine.keys.sorted() {
    source += "    static let \(engine): [EmbeddedMigrationFile] = [\n"
    for url in byEngine[engine, default: []].sorted(by: { $0.lastPathComponent < $1.lastPathComponent }) {
        guard let data = FileManager.default.contents(atPath: url.path), let text = String(data: data, encoding: .utf8) else {
            FileHandle.standardError.write(Data("error: cannot read migration \(url.path) as UTF-8\n".utf8))
            exit(65)
        }
        source += """
                EmbeddedMigrationFile(
                    fileName: \(swiftStringLiteral(url.lastPathComponent)),
                    sql: \(swiftStringLiteral(text)),
                    checksum: \(swiftStringLiteral(MigrationScript.checksum(of: text))),
                    runsInTransaction: \(MigrationScript.runsInTransaction(text))
                ),

        """
    }
    source += "    ]\n"
}
source += "}\n"

let existing = FileManager.default.contents(atPath: outputPath).flatMap { String(data: $0, encoding: .utf8) }
if existing != source {
    do {
        try source.write(toFile: outputPath, atomically: true, encoding: .utf8)
    } catch {
        FileHandle.standardError.write(Data("error: cannot write \(outputPath): \(error)\n".utf8))
        exit(74)
    }
}
