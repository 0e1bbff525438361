import Foundation

/// A fresh directory under the system's temporary folder, removed when the value is released.
public final class TemporaryDirectory: @unchecked Sendable {
    /// The directory's URL.
    public let url: URL

    /// Creates the directory.
    public init(_ label: String = "stockroom-tests") {
        url = FileManager.default.temporaryDirectory
            .appending(path: "\(label)-\(UUID().uuidString.prefix(8))", directoryHint: .isDirectory)
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// The path of `name` inside the directory.
    public func path(_ name: String) -> String {
        url.appending(path: name).path
    }
}
