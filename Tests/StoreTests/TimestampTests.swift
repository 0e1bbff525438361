import Foundation
import Inventory
@testable import StockroomStore
import Testing

/// The one UTC formatter: the stored form and the file-name form of the same instant.
@Suite struct TimestampTests {
    @Test func theFileNameFormIsBasicISO8601ToTheSecond() {
        let date = Date(timeIntervalSince1970: 1_795_355_701.9)
        #expect(Timestamp.compact(date) == "20261122T135501Z")
        #expect(Timestamp.compact(Date(timeIntervalSince1970: 0)) == "19700101T000000Z")
        #expect(DatabaseRestore.safetyCopyPath(for: "/data/inventory.sqlite", at: date, attempt: 2)
            == "/data/inventory.before-restore-20261122T135501Z-2.sqlite")
    }

    @Test func theStoredFormHasMillisecondsAndMatchesTheSchemasPattern() throws {
        let now = Timestamp.now()
        #expect(now.utf8.count == 24, "\(now)")
        #expect(now.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil, "\(now)")
    }

    /// `RecordedItemEvent.recordedDate`: the stored text read back as the instant it names.
    @Test func theStoredFormReadsBackAsADate() throws {
        let date = try #require(Timestamp.date(from: "2026-11-22T15:04:05.123Z"))
        #expect(abs(date.timeIntervalSince1970 - 1_795_359_845.123) < 0.000_5)
        #expect(Timestamp.date(from: "2026-11-22T15:04:05Z") == Date(timeIntervalSince1970: 1_795_359_845))
        let now = Timestamp.now()
        let read = try #require(Timestamp.date(from: now))
        #expect(abs(read.timeIntervalSinceNow) < 60, "\(now)")
        for malformed in ["", "2026-11-22 15:04:05.123Z", "2026-11-22T15:04:05.123", "2026-13-22T15:04:05Z",
                          "2026-11-22T15:04:05.Z", "2026-11-22T15:04:05.12xZ", "2026-11-22T15:04:05.1234567890123Z"] {
            #expect(Timestamp.date(from: malformed) == nil, "\(malformed)")
        }
        let event = RecordedItemEvent(itemID: UUID(), version: 1, recordedAt: "1970-01-01T00:00:01.500Z", event: .deleted)
        #expect(event.recordedDate == Date(timeIntervalSince1970: 1.5))
    }
}
