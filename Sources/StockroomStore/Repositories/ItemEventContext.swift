import FoundationEssentials
import Inventory

// How a writer tells the history triggers what its next write to an item is (migration 0011):
// a row of `item_event_context` for the item, inserted in the writer's transaction just before
// the write and deleted right after, which the triggers copy into the event they append. Written
// once over ``StoreConnection`` for both engines.

extension StoreConnection {
    /// Runs `body`, whose writes to the item with `itemID` are recorded in its history with
    /// these details: `adjustedBy` on a 'changed' event (an adjustment by that many units, not
    /// 0), `origin` and `intentID` (both or neither) on any event, as the replica and intent a
    /// hub applied. Inside the caller's transaction, or a new one (a savepoint when one is
    /// open), so that the context row exists only during `body` and is never committed: a
    /// `body` that throws rolls it back with its own writes.
    ///
    /// On PostgreSQL it first takes the history turn (``DatabaseEngine/historyTurn``, as every
    /// writer of `items` does), so that a context row is only ever written by the one
    /// transaction holding the turn and no two writers wait on each other's rows. A transaction
    /// opened here runs `body` again on a serialization failure, as ``inTransaction(_:)`` does.
    ///
    /// - Throws: what `body` throws; the engine's constraint error for a context the schema
    ///   refuses (an adjustment of 0, an origin without its intent), or when a context for the
    ///   item is already declared in this transaction (contexts do not nest).
    func withEventContext<T>(itemID: UUID, adjustedBy: Int? = nil, origin: UUID? = nil, intentID: UUID? = nil,
                             _ body: () throws -> T) throws -> T {
        try inTransaction {
            try takeHistoryTurn()
            return try declaring(EventDetails(adjustedBy: adjustedBy, origin: origin, intentID: intentID), for: itemID, body)
        }
    }

    /// Inserts the context row of `itemID`, runs `body`, deletes the row: the core of
    /// ``withEventContext(itemID:adjustedBy:origin:intentID:_:)`` for a caller already in its
    /// transaction and holding the history turn (an adjustment, ``ItemRecords``).
    func declaring<T>(_ details: EventDetails, for itemID: UUID, _ body: () throws -> T) throws -> T {
        let layout = ItemEventContextTable.layout
        try withStatement(ItemEventContextTable.insertSQL) { statement in
            try statement.bind(itemID, at: layout.itemID)
            var row = RowBinder(statement, at: layout.details)
            try EventDetailsCodec.bind(details, to: &row)
            try statement.run()
        }
        let result = try body()
        try withStatement(ItemEventContextTable.deleteSQL) { statement in
            try statement.bind(itemID, at: 0)
            try statement.run()
        }
        return result
    }
}

extension InventoryStore {
    /// Runs `body`, whose writes to the item with `itemID` are recorded in its history with
    /// these details (``StoreConnection/withEventContext(itemID:adjustedBy:origin:intentID:_:)``):
    /// how a hub records the replica and the intent a write applies. Inside the caller's
    /// ``write(_:)``, or a transaction of its own.
    package func withEventContext<T>(itemID: UUID, adjustedBy: Int? = nil, origin: UUID? = nil, intentID: UUID? = nil,
                                     _ body: () throws -> T) throws -> T {
        try connection.withEventContext(itemID: itemID, adjustedBy: adjustedBy, origin: origin, intentID: intentID, body)
    }
}
