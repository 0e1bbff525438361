import Foundation
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
}
