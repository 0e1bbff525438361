import Foundation
import StockroomTestSupport
import Testing

/// Issue 30: the library's public API is recorded in API/ (scripts/public-api.sh), so that
/// every change of it is deliberate: made with its record, and seen in review as a diff. The
/// same check refuses a public declaration without a `///` comment.
@Suite struct PublicAPITests {
    @Test func thePublicAPIMatchesItsRecord() throws {
        let script = Processes.packageRoot.appending(path: "scripts/public-api.sh").path
        let result = try Processes.run("/bin/bash", [script, "--check"])
        #expect(result.status == 0, "the public API changed without API/ being updated (run scripts/public-api.sh and review the diff), or a public declaration has no /// comment:\n\(result.stderr)")
    }
}
