import Foundation
import GRDB
import Inventory

/// GRDB 7 with records written by hand for the tagged columns (`init(row:)` and
/// `encode(to:)`): the fair fast path a GRDB user would write.
final class GRDBRecordsImplementation: DraftCycling {
    let name = "GRDB records"
    private var queue: DatabaseQueue?

    func open(path: String) throws { queue = try GRDBSetup.open(path) }
    func close() { queue = nil }

    func insert(_ items: [Item]) throws {
        let now = isoNow()
        try queue!.write { db in
            for item in items {
                try ItemRecord(item: item, timestamp: now).insert(db)
            }
        }
    }

    func fetchAll() throws -> [Item] {
        try queue!.read { db in try ItemRecord.fetchAll(db, sql: SharedSQL.selectAll).map(\.item) }
    }

    func page(color: Color, namePrefix: String) throws -> [Item] {
        try queue!.read { db in
            try ItemRecord.fetchAll(db, sql: SharedSQL.page, arguments: [color.rawValue, namePrefix]).map(\.item)
        }
    }

    func draftCycle(itemID: UUID, newName: String) throws {
        let draftID = UUID.version7()
        try queue!.write { db in
            guard let source = try ItemRecord.fetchOne(db, sql: SharedSQL.selectItem, arguments: [itemID.lowercasedString]) else {
                throw BenchmarkError(message: "no item")
            }
            let copy = Item(id: UUID.version7(), name: source.item.name, color: source.item.color, status: source.item.status,
                            location: source.item.location)
            try DraftRecord(id: draftID, sourceItemID: itemID, item: copy, timestamp: isoNow()).insert(db)
        }
        try queue!.write { db in
            guard var draft = try DraftRecord.fetchOne(db, sql: SharedSQL.selectDraft, arguments: [draftID.lowercasedString]) else {
                throw BenchmarkError(message: "no draft")
            }
            draft.item.name = newName
            draft.timestamp = isoNow()
            try draft.update(db)
        }
        try queue!.write { db in
            guard let draft = try DraftRecord.fetchOne(db, sql: SharedSQL.selectDraft, arguments: [draftID.lowercasedString]) else {
                throw BenchmarkError(message: "no draft")
            }
            let now = isoNow()
            try ItemRecord(item: draft.item, timestamp: now).insert(db)
            try draft.delete(db)
        }
    }
}

/// GRDB 7 with its default Codable mapping: a flat row struct whose properties are the columns,
/// converted to and from `Item` around each query.
final class GRDBCodableImplementation: Implementation {
    let name = "GRDB Codable"
    private var queue: DatabaseQueue?

    func open(path: String) throws { queue = try GRDBSetup.open(path) }
    func close() { queue = nil }

    func insert(_ items: [Item]) throws {
        let now = isoNow()
        try queue!.write { db in
            for item in items {
                try CodableItemRow(item, timestamp: now).insert(db)
            }
        }
    }

    func fetchAll() throws -> [Item] {
        try queue!.read { db in try CodableItemRow.fetchAll(db).map { try $0.item() } }
    }

    func page(color: Color, namePrefix: String) throws -> [Item] {
        try queue!.read { db in
            try CodableItemRow.filter(sql: "status = 'in_stock' AND color = ? AND name >= ? AND name < ? || char(1114111)",
                                      arguments: [color.rawValue, namePrefix, namePrefix])
                .order(sql: "name, id").limit(50).fetchAll(db).map { try $0.item() }
        }
    }
}

enum GRDBSetup {
    /// The product's connection settings: WAL, synchronous=FULL, foreign keys, busy timeout.
    static func open(_ path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        return try DatabaseQueue(path: path, configuration: configuration)
    }
}

struct ItemRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "items"
    var item: Item
    var timestamp = ""

    init(item: Item, timestamp: String) {
        self.item = item
        self.timestamp = timestamp
    }

    init(row: Row) throws {
        item = try TaggedRow.item(row, at: 0)
    }

    func encode(to container: inout PersistenceContainer) throws {
        TaggedRow.encode(item, to: &container, idColumn: "id")
        container["created_at"] = timestamp
        container["updated_at"] = timestamp
    }
}

struct DraftRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "drafts"
    var id: UUID
    var sourceItemID: UUID
    var item: Item
    var timestamp = ""

    init(id: UUID, sourceItemID: UUID, item: Item, timestamp: String) {
        self.id = id
        self.sourceItemID = sourceItemID
        self.item = item
        self.timestamp = timestamp
    }

    init(row: Row) throws {
        guard let id = UUID(uuidString: row[0]), let source = UUID(uuidString: row[2]) else {
            throw BenchmarkError(message: "bad draft row")
        }
        self.id = id
        self.sourceItemID = source
        self.item = try TaggedRow.item(row, at: 3)
    }

    func encode(to container: inout PersistenceContainer) throws {
        container["id"] = id.lowercasedString
        container["kind"] = "duplicating"
        container["source_item_id"] = sourceItemID.lowercasedString
        TaggedRow.encode(item, to: &container, idColumn: "item_id")
        container["created_at"] = timestamp
        container["updated_at"] = timestamp
    }
}

/// The tagged-column mapping written by hand for GRDB, mirroring Stockroom's rules.
enum TaggedRow {
    static func item(_ row: Row, at first: Int) throws -> Item {
        let idText: String = row[first]
        guard let id = UUID(uuidString: idText) else { throw BenchmarkError(message: "bad id") }
        let colorText: String? = row[first + 2]
        let statusText: String = row[first + 3]
        let status: Status
        switch (statusText, row[first + 4] as Int?, row[first + 5] as Int?) {
        case ("in_stock", let quantity?, nil) where quantity >= 1: status = .inStock(quantity: quantity)
        case ("out_of_stock", nil, let flag?) where flag == 0 || flag == 1: status = .outOfStock(isOnBackOrder: flag == 1)
        default: throw BenchmarkError(message: "row \(idText) has no valid status")
        }
        return Item(id: id, name: row[first + 1], color: try colorText.map { text in
            guard let color = Color(rawValue: text) else { throw BenchmarkError(message: "bad colour") }
            return color
        }, status: status, location: (row[first + 6] as String?).map(ItemLocation.init(stored:)))
    }

    static func encode(_ item: Item, to container: inout PersistenceContainer, idColumn: String) {
        container[idColumn] = item.id.lowercasedString
        container["name"] = item.name
        container["color"] = item.color?.rawValue
        container["location"] = item.location?.text
        switch item.status {
        case .inStock(let quantity):
            container["status"] = "in_stock"
            container["quantity"] = quantity
            container["is_on_back_order"] = nil as Int?
        case .outOfStock(let isOnBackOrder):
            container["status"] = "out_of_stock"
            container["quantity"] = nil as Int?
            container["is_on_back_order"] = isOnBackOrder ? 1 : 0
        }
    }
}

/// GRDB's default Codable mapping: properties named after the columns.
struct CodableItemRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "items"
    var id: String
    var name: String
    var color: String?
    var status: String
    var quantity: Int?
    var is_on_back_order: Int?
    var location: String?
    var created_at: String
    var updated_at: String

    init(_ item: Item, timestamp: String) {
        id = item.id.lowercasedString
        name = item.name
        color = item.color?.rawValue
        switch item.status {
        case .inStock(let count): (status, quantity, is_on_back_order) = ("in_stock", count, nil)
        case .outOfStock(let flag): (status, quantity, is_on_back_order) = ("out_of_stock", nil, flag ? 1 : 0)
        }
        location = item.location?.text
        created_at = timestamp
        updated_at = timestamp
    }

    func item() throws -> Item {
        guard let uuid = UUID(uuidString: id) else { throw BenchmarkError(message: "bad id") }
        let decoded: Status
        switch (status, quantity, is_on_back_order) {
        case ("in_stock", let count?, nil) where count >= 1: decoded = .inStock(quantity: count)
        case ("out_of_stock", nil, let flag?) where flag == 0 || flag == 1: decoded = .outOfStock(isOnBackOrder: flag == 1)
        default: throw BenchmarkError(message: "row \(id) has no valid status")
        }
        return Item(id: uuid, name: name, color: color.flatMap(Color.init(rawValue:)), status: decoded,
                    location: location.map(ItemLocation.init(stored:)))
    }
}
