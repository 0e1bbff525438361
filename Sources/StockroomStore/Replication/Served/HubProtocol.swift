import FoundationEssentials
import Inventory
import StockroomMigrations

/// The sync protocol's documents: what a replica and a `stockroom serve` hub send each other
/// (docs/replicas.md, "The sync protocol"; the OpenAPI document has their schemas). Rows are
/// the tables' columns as text (``WireRow``), named by `columns` where a mismatch would
/// misread them.
enum HubProtocol {
    /// The protocol's own version: a server and a replica that speak different ones refuse
    /// each other, as different schema versions do.
    static let version = 1
    /// The largest batch a server takes: a replica pushes at most this many intents per
    /// request, one hub transaction each.
    static let largestBatch = 500
    /// Items per page of a whole pull.
    static let pageSize = 1_000
    /// The largest request body a server reads: a full batch of long texts fits many times.
    static let largestBody = 16 << 20

    /// `GET /api/sync`: who the hub is and what it takes.
    struct Info: Codable, Equatable {
        var hub: String
        var protocolVersion: Int
        var schemaVersion: Int
        var largestBatch: Int
        var readOnly: Bool
        /// The hub this server's database is itself a replica of: it cannot be a hub.
        var replicaOf: String?
    }

    /// `POST /api/sync/batches`: intents of one replica, in its order, with where the replica
    /// registered (the hub binds its id to that place: ``HubOrigins``).
    struct Batch: Codable {
        var replica: String
        var machine: String
        var path: String
        var schemaVersion: Int
        var columns: [String]
        var intents: [[String?]]
        /// Items whose rows the answer must carry beyond the batch's: those a sync killed
        /// after its push and before its pull left to re-read.
        var reread: [String]?
    }

    /// The answer to a batch: what the hub did, and how it holds the batch's items after it
    /// (the pull that follows makes them the replica's).
    struct Applied: Codable {
        var applied: Int
        var alreadyApplied: Int
        var conflictsOpened: Int
        var items: [[String?]]
    }

    /// `GET /api/sync/changes?after=P`: the hub's position, and unless the pull is whole the
    /// items changed after P; the hub's open conflicts either way.
    struct Changes: Codable {
        var position: Int
        var whole: Bool
        var items: [[String?]]
        var conflicts: [[String?]]
    }

    /// `GET /api/sync/items?after=ID`: a page of every item, in id order.
    struct Page: Codable {
        var items: [[String?]]
        /// The id to ask after for the next page; nil on the last, sent as `null` (the
        /// synthesized encoding would leave the member out).
        var next: String?

        init(items: [[String?]], next: String?) {
            self.items = items
            self.next = next
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(items, forKey: .items)
            try container.encode(next, forKey: .next)
        }
    }

    /// The schema version of this program's migrations for SQLite, the replica's engine.
    static var schemaVersion: Int { MigrationSet.embedded(.sqlite).latestVersion }

    /// Whether a pull after `after` is whole, the hub being at `position`: the first one, and
    /// one after the hub's history went backwards (restored from a backup), whose positions no
    /// longer mean what they did.
    static func isWhole(after: Int, position: Int) -> Bool { after == 0 || position < after }

    static func encode<Document: Encodable>(_ document: Document) -> [UInt8] {
        // Encoding these documents cannot fail: strings, numbers and arrays of them.
        Array((try? JSONEncoder().encode(document)) ?? Data())
    }

    static func decode<Document: Decodable>(_ type: Document.Type, from body: [UInt8]) throws -> Document {
        try JSONDecoder().decode(type, from: Data(body))
    }

    // MARK: - Rows

    /// An item as a pull carries it: its columns then its times, or its id alone when the
    /// hub holds no such item.
    static func row(_ pulled: PulledItem) -> [String?] {
        guard let held = pulled.row else { return [pulled.id.lowercasedString] }
        let row = WireRow(count: ItemsTable.itemColumns.count + 2)
        var binder = RowBinder(row)
        // Binding into a WireRow cannot fail.
        try? ItemCodec.bind(held.item, to: &binder)
        try? binder.bind(held.createdAt)
        try? binder.bind(held.updatedAt)
        return row.values
    }

    static func pulledItem(_ values: [String?]) throws -> PulledItem {
        let row = WireRow(values: values)
        if values.count == 1 {
            guard let id = row.uuid(at: 0) else { throw HubProtocolError.malformed("an item's id \(row.describeColumn(at: 0)) is not a UUID") }
            return PulledItem(id: id, row: nil)
        }
        let count = ItemsTable.itemColumns.count
        guard values.count == count + 2 else { throw HubProtocolError.malformed("an item row has \(values.count) columns, not \(count + 2)") }
        let item = try ItemsTable.decode(row)
        return PulledItem(id: item.id, row: (item, row.text(at: count), row.text(at: count + 1)))
    }

    /// A resolving draft, as the drafts table holds it.
    static func row(_ draft: IdentifiedDraft) -> [String?] {
        let row = WireRow(count: 1 + DraftCodec.columns().count)
        var binder = RowBinder(row)
        try? binder.bind(draft.id)
        try? DraftCodec.bind(draft.draft, to: &binder)
        return row.values
    }

    static func draft(_ values: [String?]) throws -> IdentifiedDraft {
        guard values.count == 1 + DraftCodec.columns().count else {
            throw HubProtocolError.malformed("a draft row has \(values.count) columns, not \(1 + DraftCodec.columns().count)")
        }
        return try DraftsTable.decode(WireRow(values: values))
    }
}

/// A document of the protocol that does not read as one.
enum HubProtocolError: Error, CustomStringConvertible {
    case malformed(String)

    var description: String {
        switch self {
        case .malformed(let reason): reason
        }
    }
}

extension Sequence where Element == OutboxIntent {
    /// The items a pushed batch is about, and the id a resolution may bring an item back under:
    /// the pull makes them the hub's, whatever the hub judged.
    var judgedItems: Set<UUID> {
        var items = Set<UUID>()
        for waiting in self {
            items.insert(waiting.intent.itemID)
            if case .resolve = waiting.intent.change { items.insert(waiting.intent.id) }
        }
        return items
    }
}
