// swift-tools-version: 6.1
import PackageDescription

// Side-by-side benchmarks: raw SQLite C calls, Stockroom's repositories and GRDB, in one
// process on the same schema and data. A separate package so that the product never
// depends on GRDB. Run with scripts/bench.sh.
let package = Package(
    name: "StockroomBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Stockroom", path: ".."),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: [
        // libpq linked directly, for the raw peer of W1-W3 on PostgreSQL (`--postgres`).
        .systemLibrary(name: "RawLibPQ", providers: [.apt(["libpq-dev"])]),
        .executableTarget(
            name: "StockroomBenchmarks",
            dependencies: [
                "RawLibPQ",
                .product(name: "StockroomStore", package: "Stockroom"),
                .product(name: "StockroomMigrations", package: "Stockroom"),
                .product(name: "SQLiteCore", package: "Stockroom"),
                .product(name: "Inventory", package: "Stockroom"),
                .product(name: "GRDB", package: "GRDB.swift"),
                // The raw C API: GRDB's module map over the same system libsqlite3.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        // W12 (c): the library's HistoryEvents as a program latency.py can time.
        .executableTarget(name: "ObserveEvents", dependencies: [.product(name: "StockroomStore", package: "Stockroom")]),
    ],
    swiftLanguageModes: [.v6]
)
