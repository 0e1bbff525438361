import FoundationEssentials
import Inventory

/// How a change was made, beyond what it changed (migration 0011): the facts a writer declares
/// in `item_event_context` before its write, and the history triggers copy into the event.
/// Every field nil is a plain change made here, which is what a write that declares nothing
/// (the `sqlite3` shell, `items update`) records.
struct EventDetails: Hashable, Sendable {
    /// The adjustment's units (never 0), for a write that is an adjustment.
    var adjustedBy: Int?
    /// The replica whose intent the write applies, on a hub; set exactly when ``intentID`` is.
    var origin: UUID?
    /// That intent.
    var intentID: UUID?

    /// No fact: a plain change made here.
    static let none = EventDetails()

    init(adjustedBy: Int? = nil, origin: UUID? = nil, intentID: UUID? = nil) {
        self.adjustedBy = adjustedBy
        self.origin = origin
        self.intentID = intentID
    }
}

/// ``EventDetails`` as the three nullable columns `adjusted_by, origin, intent_id`, the same in
/// `item_events` and `item_event_context` (whose CHECKs keep adjusted_by non-zero and origin
/// with intent_id).
enum EventDetailsCodec {
    /// The columns, in bind order.
    static let columns = ["adjusted_by", "origin", "intent_id"]
    /// The schema version whose migration (0011_event_details) added the columns to
    /// `item_events`: an older file is read with them stood in for by NULL.
    static let addedIn = 11

    static func bind<Sink: ParameterSink>(_ details: EventDetails, to row: inout RowBinder<Sink>) throws {
        if let adjustedBy = details.adjustedBy { try row.bind(adjustedBy) } else { try row.bindNulls() }
        if let origin = details.origin { try row.bind(origin) } else { try row.bindNulls() }
        if let intentID = details.intentID { try row.bind(intentID) } else { try row.bindNulls() }
    }

    /// Reads the three columns; refuses what the CHECKs refuse (ids that are not UUIDs, an
    /// origin without its intent, a zero adjustment, an adjustment on `kind`'s other cases).
    static func decode<Source: ColumnSource>(from row: inout RowReader<Source>, kind: ItemEvent.Case) throws(ColumnDecodingError) -> EventDetails {
        let statement = row.statement
        let adjusted = row.next(), origin = row.next(), intent = row.next()
        func invalid(_ rule: String) -> ColumnDecodingError {
            let described = [adjusted, origin, intent].map { "\(statement.columnName(at: $0)) \(statement.describeColumn(at: $0))" }
            return ColumnDecodingError(reason: "\(described.joined(separator: ", ")) \(rule)")
        }
        let adjustedBy = statement.optionalInt(at: adjusted)
        if let adjustedBy, adjustedBy == 0 || kind != .changed {
            throw invalid("is not a valid adjustment: a 'changed' event's units, not 0")
        }
        func id(at index: Int) throws(ColumnDecodingError) -> UUID? {
            guard !statement.isNull(at: index) else { return nil }
            guard let id = statement.uuid(at: index) else { throw invalid("holds an id that is not a UUID") }
            return id
        }
        let details = EventDetails(adjustedBy: adjustedBy, origin: try id(at: origin), intentID: try id(at: intent))
        guard (details.origin == nil) == (details.intentID == nil) else {
            throw invalid("names an origin without its intent, or an intent without its origin")
        }
        return details
    }
}
