// swift-tools-version: 6.1
import PackageDescription

// Coverage-guided fuzz targets (libFuzzer, AddressSanitizer) for the parsers that read what a
// user or a file hands Stockroom. A separate package, like Benchmarks/, so that the product's
// `swift build` never links a fuzzer runtime. Built and run by scripts/fuzz.sh only, with
// `-sanitize=fuzzer,address` on every module; each target defines `LLVMFuzzerTestOneInput`
// and no `main` (libFuzzer's). They reach internal API through `@testable import`: SwiftPM's
// debug builds compile the product's modules with testing enabled, as for the unit tests.
let package = Package(
    name: "StockroomFuzz",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Stockroom", path: ".."),
    ],
    targets: [
        // libFuzzer's driver entry point (a header only; scripts/fuzz.sh links the library).
        .systemLibrary(name: "CLibFuzzer"),
        // Helpers shared by the targets: the driver call, inputs as descriptors, properties.
        .target(name: "FuzzSupport", dependencies: ["CLibFuzzer"]),
        .executableTarget(name: "FuzzCSVReader", dependencies: [
            "FuzzSupport",
            .product(name: "StockroomStore", package: "Stockroom"),
        ]),
        .executableTarget(name: "FuzzJSONScanner", dependencies: [
            "FuzzSupport",
            .product(name: "StockroomStore", package: "Stockroom"),
        ]),
        .executableTarget(name: "FuzzImportRowDecoder", dependencies: [
            "FuzzSupport",
            .product(name: "StockroomStore", package: "Stockroom"),
            .product(name: "Inventory", package: "Stockroom"),
        ]),
        .executableTarget(name: "FuzzIDPrefix", dependencies: [
            "FuzzSupport",
            .product(name: "StockroomStore", package: "Stockroom"),
            .product(name: "SQLiteCore", package: "Stockroom"),
        ]),
        .executableTarget(name: "FuzzSQLTokens", dependencies: [
            "FuzzSupport",
            .product(name: "StockroomMigrations", package: "Stockroom"),
        ]),
        .executableTarget(name: "FuzzConnectionString", dependencies: [
            "FuzzSupport",
            .product(name: "PostgresCore", package: "Stockroom"),
            .product(name: "StockroomStore", package: "Stockroom"),
        ]),
        .executableTarget(name: "FuzzBoundedPrintf", dependencies: [
            "FuzzSupport",
            .product(name: "SQLiteCore", package: "Stockroom"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
