import Foundation
import StockroomTestSupport
import Testing

/// Issue 18: `Sources/stockroom` imports `StockroomStore`, `Inventory`, `DraftFlow`, `TextFormats`
/// and `ArgumentParser`, nothing else (system modules aside), and Package.swift says so. No
/// engine (SQLiteCore, PostgresCore, LibPQ, CSQLite), no migrations, no web server: the CLI is a
/// front over the core, as any other front would be.
@Suite struct ImportRuleTests {
    /// The modules of the issue.
    static let allowed: Set = ["StockroomStore", "Inventory", "DraftFlow", "TextFormats", "ArgumentParser"]
    /// The system's modules the CLI imports: FoundationEssentials, not Foundation, whose full
    /// module costs every start (SharedLibraryTests).
    static let system: Set = ["Glibc", "FoundationEssentials"]

    static let sources = Processes.packageRoot.appending(path: "Sources")

    /// Every `.swift` file under Sources/`folder`, with the modules it imports.
    static func imports(under folder: String) throws -> [(file: String, modules: Set<String>)] {
        let root = sources.appending(path: folder)
        let files = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        return try files.map { file in
            let text = try String(contentsOf: file, encoding: .utf8)
            return (String(file.path.dropFirst(root.path.count + 1)), importedModules(in: text))
        }.sorted { $0.file < $1.file }
    }

    /// The modules `source` imports: `import M`, `import M.Sub`, `import struct M.T`, with any
    /// attributes and access level before (`@testable`, `@preconcurrency`, `internal`, ...).
    static func importedModules(in source: String) -> Set<String> {
        var modules: Set<String> = []
        let kinds: Set = ["struct", "class", "enum", "protocol", "typealias", "func", "var", "let"]
        let modifiers: Set = ["public", "package", "internal", "fileprivate", "private"]
        for line in source.split(whereSeparator: \.isNewline) {
            for statement in line.split(separator: ";") {
                let words = statement.split(whereSeparator: \.isWhitespace)
                    .drop { $0.hasPrefix("@") || modifiers.contains(String($0)) }
                guard words.first == "import" else { continue }
                let path = words.dropFirst().drop { kinds.contains(String($0)) }.first
                if let module = path?.split(separator: ".").first { modules.insert(String(module)) }
            }
        }
        return modules
    }

    @Test func theReaderFindsEveryFormOfImport() {
        let source = """
            import ArgumentParser
            @testable import stockroom
            @preconcurrency internal import Glibc
            import struct SQLiteCore.Statement
            import PostgresCore.Connection; import LibPQ
            /// import NotAnImport, said in a comment
            let important = 1
            """
        #expect(Self.importedModules(in: source) == ["ArgumentParser", "stockroom", "Glibc", "SQLiteCore", "PostgresCore", "LibPQ"])
    }

    @Test func theCLIImportsOnlyTheCoreModulesAndArgumentParser() throws {
        let files = try Self.imports(under: "stockroom")
        #expect(files.count > 30, "Sources/stockroom was not read: \(files.map(\.file))")
        var used: Set<String> = []
        for (file, modules) in files {
            used.formUnion(modules)
            let others = modules.subtracting(Self.allowed).subtracting(Self.system)
            #expect(others.isEmpty, "Sources/stockroom/\(file) imports \(others.sorted()); issue 18 allows \(Self.allowed.sorted()) and the system's \(Self.system.sorted())")
        }
        // Proves the files were understood: the CLI is built on these.
        #expect(used.isSuperset(of: ["StockroomStore", "ArgumentParser"]), "\(used.sorted())")
    }

    /// Named as well, in case a module is ever allowed by mistake: none of the project's other
    /// modules (every folder in Sources/, the engines, the migrations and the web server among them).
    @Test func theCLIImportsNoOtherModuleOfTheProject() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path)
        let project = Set(folders.map { $0.replacingOccurrences(of: "-", with: "_") } + ["StockroomTestSupport"])
        let forbidden = project.subtracting(Self.allowed).subtracting(["stockroom"])
        #expect(forbidden.isSuperset(of: ["SQLiteCore", "PostgresCore", "LibPQ", "CLibPQ", "CSQLite",
                                          "StockroomMigrations", "StockroomServer", "stockroom_serve"]), "\(forbidden.sorted())")
        for (file, modules) in try Self.imports(under: "stockroom") {
            #expect(modules.isDisjoint(with: forbidden), "Sources/stockroom/\(file) imports \(modules.intersection(forbidden).sorted())")
        }
    }

    /// Package.swift declares the same five, and nothing more, for the `stockroom` target.
    @Test func thePackageDeclaresExactlyTheseDependencies() throws {
        let manifest = try String(contentsOf: Processes.packageRoot.appending(path: "Package.swift"), encoding: .utf8)
        let target = try #require(manifest.range(of: ".executableTarget(\n            name: \"stockroom\","),
                                  "Package.swift's stockroom target was not found")
        let rest = manifest[target.upperBound...]
        let dependencies = try #require(rest.range(of: "dependencies: ["))
        let list = rest[dependencies.upperBound..<(try #require(rest.range(of: "\n            ]")).lowerBound)]
        // "Name" and .product(name: "Name", package: "package"): the names, not the packages.
        let names = list.split(separator: "\"").enumerated().compactMap { index, part -> String? in
            guard index % 2 == 1 else { return nil }
            return String(part)
        }.filter { name in !list.contains("package: \"\(name)\"") }
        #expect(Set(names) == Self.allowed, "Package.swift: stockroom depends on \(names)")
        #expect(names.count == Self.allowed.count, "\(names)")
    }
}
