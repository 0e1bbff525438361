import Foundation
import StockroomTestSupport
import Testing

/// Issue 30: the articles' code is compiled and run (ArticleSnippets.swift, generated from
/// them); this test keeps the generated file in step with the articles, so an article edited
/// without running scripts/doc-snippets.py fails instead of going untested.
@Suite struct DocumentationSnippetTests {
    @Test func theSnippetTestsAreGeneratedFromTheCurrentArticles() throws {
        let script = Processes.packageRoot.appending(path: "scripts/doc-snippets.py").path
        let result = try Processes.run("/usr/bin/env", ["python3", script, "--check"])
        #expect(result.status == 0, "\(result.stderr)")
    }
}
