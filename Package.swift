// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Stockroom",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "stockroom", targets: ["stockroom"]),
        // The web front, a program of its own: `stockroom serve` runs it (execv), so that no other
        // command pays for Hummingbird and SwiftNIO at start-up (BENCHMARKS.md, "Start-up, third round").
        .executable(name: "stockroom-serve", targets: ["stockroom-serve"]),
        .library(name: "SQLiteCore", targets: ["SQLiteCore"]),
        .library(name: "StockroomMigrations", targets: ["StockroomMigrations"]),
        .library(name: "Inventory", targets: ["Inventory"]),
        .library(name: "StockroomStore", targets: ["StockroomStore"]),
        .library(name: "DraftFlow", targets: ["DraftFlow"]),
        .library(name: "PostgresCore", targets: ["PostgresCore"]),
        .library(name: "StockroomHTTP", targets: ["StockroomHTTP"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // The web front only (`stockroom-serve`): HTTP/1.1 on SwiftNIO, and its testing module.
        // Without its default traits: "FullFoundation" imports Foundation's full module and
        // "ConfigurationSupport" links swift-configuration, which does too; either puts
        // Foundation, FoundationInternationalization and ICU back into every `stockroom` start
        // (BENCHMARKS.md, "Issue 21: start-up"). Stockroom uses neither.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        // Documentation only: `swift package generate-documentation` (the DocC catalogs in
        // Sources/<Module>/<Module>.docc). A command plugin: nothing of it is linked into a product.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // The HTTP client of a replica syncing through `stockroom serve` (StockroomHTTP), with
        // TLS for `https://` and a private CA (--ca-file): the server's own SwiftNIO, so it adds
        // no second networking stack. Linked into `stockroom-serve` and library users only;
        // `stockroom sync` reaches it through `stockroom-serve --sync-relay`, so that no other
        // command loads it at start-up (BENCHMARKS.md, "Issue 36: start-up").
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.0"),
    ],
    targets: [
        // The system's libsqlite3 (Debian: libsqlite3-dev). No vendored SQLite, no wrapper package.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // Connections, prepared statements, transactions and errors: SQLite and nothing else.
        .target(name: "SQLiteCore", dependencies: ["CSQLite", "TextFormats"]),
        // A migration script's checksum and transaction flag: one implementation, used at build
        // time by EmbedMigrationsTool and at run time for a folder. Depends on nothing.
        .target(name: "MigrationChecksum"),
        // Versioned SQL files from Migrations/sqlite/ and Migrations/postgres/, embedded at build
        // time, and a runner for each engine.
        .target(
            name: "StockroomMigrations",
            dependencies: ["SQLiteCore", "PostgresCore", "MigrationChecksum", "TextFormats"],
            plugins: ["EmbedMigrations"]
        ),
        // JSON string escaping, CSV quoting, table alignment and the control characters they all
        // escape: generic text syntax, one implementation each. Depends on nothing.
        .target(name: "TextFormats"),
        // The domain: items, statuses, drafts and how they read. Knows nothing of SQLite; writes
        // its JSON and tables through TextFormats.
        .target(name: "Inventory", dependencies: ["TextFormats"]),
        // The draft wizard as a pure state machine (steps, answers, wording): any front drives it.
        .target(name: "DraftFlow", dependencies: ["Inventory", "TextFormats"]),
        // Repositories that map the domain onto tagged columns, written once for SQLite and PostgreSQL;
        // and what a program needs around them (Program/): the exit codes and the one `error:`
        // line (Failure), which database `--db` names, the start-up checks and the version,
        // without a command-line parser: every front reads its own.
        .target(name: "StockroomStore", dependencies: ["SQLiteCore", "PostgresCore", "StockroomMigrations", "Inventory", "TextFormats"]),
        // The web front (`stockroom serve`): a JSON API and server-rendered pages over the same
        // core as the CLI. No engine code: it reaches the database through StockroomStore only.
        .target(
            name: "StockroomServer",
            dependencies: [
                "StockroomStore",
                "Inventory",
                "DraftFlow",
                "TextFormats",
                .product(name: "Hummingbird", package: "hummingbird"),
            ]
        ),
        // The command-line front: thin over the store, and no engine code of its own: `query`,
        // `check`, `migrate`, backups and the exit codes of engine errors all go through
        // StockroomStore's engine-neutral API, so a second front needs no more than this.
        // No web server: `stockroom serve` execs `stockroom-serve`, found next to this binary.
        // Exactly these five modules, as issue 18 asks (CLITests' ImportRuleTests hold its files
        // to them).
        .executableTarget(
            name: "stockroom",
            dependencies: [
                "StockroomStore",
                "Inventory",
                "DraftFlow",
                "TextFormats",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // A replica's way to a `stockroom serve` hub: StockroomStore's HubTransport over
        // HTTP and HTTPS. Bytes only: the protocol's documents and the rules are the store's.
        .target(
            name: "StockroomHTTP",
            dependencies: [
                "StockroomStore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // `stockroom serve`'s program: its options over StockroomServer; its exit codes and
        // `--db` are StockroomStore's, as `stockroom`'s are. Also `stockroom sync`'s HTTP
        // client (`--sync-relay`), so that `stockroom` itself links none.
        .executableTarget(
            name: "stockroom-serve",
            dependencies: [
                "StockroomServer",
                "StockroomStore",
                "StockroomHTTP",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Build-time tool and plugin that turn Migrations/*.sql into Swift source.
        .executableTarget(name: "EmbedMigrationsTool", dependencies: ["MigrationChecksum"], path: "Sources/EmbedMigrationsTool"),
        .plugin(
            name: "EmbedMigrations",
            capability: .buildTool(),
            dependencies: ["EmbedMigrationsTool"]
        ),

        // Shared test helpers: temporary folders, running real processes, the item's shape
        // (from Inventory's field declaration).
        .target(name: "StockroomTestSupport", dependencies: ["Inventory"], path: "Tests/Support"),
        .testTarget(name: "SQLiteCoreTests", dependencies: ["StockroomTestSupport", "SQLiteCore", "CSQLite"]),
        .testTarget(name: "MigrationsTests", dependencies: ["StockroomTestSupport", "StockroomMigrations", "SQLiteCore", "CSQLite", "PostgresCore"]),
        .testTarget(name: "InventoryTests", dependencies: ["StockroomTestSupport", "Inventory", "TextFormats"]),
        .testTarget(name: "TextFormatsTests", dependencies: ["TextFormats"]),
        .testTarget(name: "DraftFlowTests", dependencies: ["DraftFlow", "Inventory"]),
        .testTarget(name: "StoreTests", dependencies: ["StockroomTestSupport", "StockroomStore", "StockroomMigrations", "Inventory", "DraftFlow", "TextFormats", "SQLiteCore", "PostgresCore"]),
        .testTarget(name: "ServerTests", dependencies: [
            "StockroomTestSupport", "StockroomServer", "StockroomStore", "Inventory", "DraftFlow",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdTesting", package: "hummingbird"),
        ]),
        // The Swift code of the DocC articles, generated by scripts/doc-snippets.py, and the
        // test that the generated file is current.
        .testTarget(name: "DocumentationTests", dependencies: ["StockroomTestSupport", "StockroomStore", "Inventory", "DraftFlow"]),
        .testTarget(name: "CLITests", dependencies: ["StockroomTestSupport", "stockroom", "Inventory", "StockroomStore", "StockroomMigrations", "SQLiteCore", "PostgresCore",
                                                   .product(name: "ArgumentParser", package: "swift-argument-parser")]),

        // The system's libpq headers (Debian: libpq-dev), beside CSQLite: no Swift wrapper
        // package. Headers only: no `link`, and no pkgConfig, whose `--libs` would link libpq
        // into every program that links PostgresCore (4.5 ms and 25 libraries at each start).
        .systemLibrary(
            name: "CLibPQ",
            providers: [.apt(["libpq-dev"])]
        ),
        // libpq loaded with dlopen() on the first connection, into a table of its functions
        // with libpq-fe.h's signatures; missing libpq is an error then, not at start-up.
        .target(name: "LibPQ", dependencies: ["CLibPQ"]),
        // Connections, parameterized statements, transactions, COPY and errors: PostgreSQL
        // through libpq and nothing else.
        .target(name: "PostgresCore", dependencies: ["LibPQ", "TextFormats"]),
        .testTarget(name: "PostgresCoreTests", dependencies: ["StockroomTestSupport", "PostgresCore"]),
    ],
    swiftLanguageModes: [.v6]
)
