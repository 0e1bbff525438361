// swift-tools-version: 6.0
import PackageDescription

// The CSV reader choice of issue 12, measured: SwiftCSV and CSV.swift against Stockroom's own
// streaming reader (the same source files, linked here). Run:
//   swift run -c release --package-path Benchmarks/CSVReaders CSVReaders FILE.csv
let package = Package(
    name: "CSVReaders",
    dependencies: [
        .package(url: "file:///opt/swift-packages/swiftcsv/SwiftCSV.git", exact: "0.10.0"),
        .package(url: "file:///opt/swift-packages/yaslab/CSV.swift.git", exact: "2.5.2"),
    ],
    targets: [
        .executableTarget(
            name: "CSVReaders",
            dependencies: [
                .product(name: "SwiftCSV", package: "SwiftCSV"),
                .product(name: "CSV", package: "CSV.swift"),
            ]
        ),
    ],
    swiftLanguageModes: [.v5]
)
