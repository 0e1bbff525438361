import FoundationEssentials

/// An event with its place among the events of every item: ``position`` counts 1, 2, 3, … in
/// the order the changes were committed, without gaps, so a reader that has seen every event up
/// to position N asks for those after N and misses none (the web server's event stream resumes
/// from a client's `Last-Event-ID` this way).
public struct PositionedItemEvent: Hashable, Sendable {
    /// The event's place in commit order across all items, from 1.
    public let position: Int64
    /// The event, its item, version and time.
    public let recorded: RecordedItemEvent

    /// The item the event belongs to: `recorded.itemID`.
    public var itemID: UUID { recorded.itemID }
    /// The item's version the event made: `recorded.version`.
    public var version: Int { recorded.version }
    /// When it was recorded, as stored: `recorded.recordedAt`.
    public var recordedAt: String { recorded.recordedAt }
    /// What happened: `recorded.event`, reached without the two layers, so that a loop over
    /// `HistoryEvents` reads `entry.event` rather than `entry.recorded.event` (issue 37).
    public var event: ItemEvent { recorded.event }
    /// The units of the adjustment that made the change, if one did: `recorded.adjustedBy`.
    public var adjustedBy: Int? { recorded.adjustedBy }
    /// The replica whose intent the change applied, on a hub: `recorded.origin`.
    public var origin: UUID? { recorded.origin }
    /// The intent the change applied, on a hub: `recorded.intentID`.
    public var intentID: UUID? { recorded.intentID }

    /// Pairs an event with its position.
    public init(position: Int64, recorded: RecordedItemEvent) {
        self.position = position
        self.recorded = recorded
    }
}
