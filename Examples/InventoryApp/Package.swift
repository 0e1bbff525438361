// swift-tools-version: 6.1
// The seeds' inventory screen as a library user builds it: an @Observable model over
// StockroomStore, driven by the store's observation and drafts, with its presentation as pure
// functions, and tests that drive it without any UI; on a replica it shows the changes
// waiting, the last sync and the open conflicts, syncs, and resolves a conflict. It depends
// on Stockroom by path, as an app in the same repository would; an app elsewhere names the
// repository's URL instead.
import PackageDescription

let package = Package(
    name: "InventoryApp",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "InventoryModel", targets: ["InventoryModel"]),
    ],
    dependencies: [
        .package(name: "Stockroom", path: "../.."),
    ],
    targets: [
        .target(name: "InventoryModel", dependencies: [
            .product(name: "StockroomStore", package: "Stockroom"),
            .product(name: "Inventory", package: "Stockroom"),
            .product(name: "DraftFlow", package: "Stockroom"),
        ]),
        // The tests sync through a real `stockroom serve` too, with the HTTP client an app
        // would link; the model itself needs only StockroomStore's HubTransport.
        .testTarget(name: "InventoryModelTests", dependencies: [
            "InventoryModel",
            .product(name: "StockroomHTTP", package: "Stockroom"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
