import Foundation
@testable import stockroom
import StockroomTestSupport
import Testing

extension ServeCommandTests {
    /// Answers typed at the terminal and posted over HTTP alike: (the prompt expected, the answer).
    static let rememberingWalk: [(prompt: String, answer: String)] = [
        ("Name: ", "Lamp"), ("[none]: ", ""), ("Location (optional, Enter skips): ", "Shelf B3"), ("In stock? [Y/n]: ", "y"), ("Quantity [1]: ", "5"),
        ("[q]uit and keep the draft: ", "<"), ("Quantity [5]: ", "<"), ("In stock? [Y/n]: ", "n"),
        ("On back order? [y/N]: ", "<"), ("In stock? [y/N]: ", "y"),
        // No, back, yes: the quantity given before is offered again, in the terminal and over HTTP.
        ("Quantity [5]: ", ""), ("[q]uit and keep the draft: ", "q"),
    ]

    @Test("the wizard in a real terminal and over HTTP remember the quantity alike; a draft left in the terminal is finished over HTTP")
    func wizardHandoff() throws {
        let server = try Server()
        let terminal = try PseudoTerminalProcess(Processes.stockroomPath, ["draft", "wizard"],
                                                 environment: ["STOCKROOM_DB": server.database.path])
        try terminal.expect("Draft ")
        let draft = String(try terminal.expect(".").dropLast())
        for step in ServeCommandTests.rememberingWalk {
            _ = try terminal.expect(step.prompt)
            terminal.typeLine(step.answer)
        }
        #expect(try terminal.waitForExit() == 0, "\(terminal.transcript)")

        // The same answers over HTTP, on a draft of its own, each post carrying the step's memory.
        func json(_ response: RawHTTP.Response) -> [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(response.body.utf8)) as? [String: Any]) ?? [:]
        }
        let created = try RawHTTP.request(port: server.port, "POST", "/api/drafts", headers: ["Content-Type": "application/json"], body: "{}")
        #expect(created.status == 201)
        let web = try #require(json(created)["id"] as? String)
        var step = json(try RawHTTP.request(port: server.port, "GET", "/api/drafts/\(web)/wizard"))
        for expected in ServeCommandTests.rememberingWalk {
            // The terminal waits for the end of the prompt; the whole line ends the same way.
            #expect((step["prompt"] as? [String])?.last?.hasSuffix(expected.prompt) == true, "\(step)")
            let remembered = try JSONSerialization.data(withJSONObject: step["remembered"] ?? [:])
            let body = try JSONSerialization.data(withJSONObject: ["step": step["step"] ?? "", "answer": expected.answer])
            let combined = String(decoding: body.dropLast(), as: UTF8.self) + #","remembered":"# + String(decoding: remembered, as: UTF8.self) + "}"
            let answered = try RawHTTP.request(port: server.port, "POST", "/api/drafts/\(web)/wizard",
                                               headers: ["Content-Type": "application/json"], body: combined)
            #expect(answered.status == 200, "\(answered.body)")
            step = json(answered)
        }
        #expect(step["finished"] as? String == "quit")

        // The terminal's draft, finished over HTTP: resumed at the quantity as the terminal left it.
        let resumed = json(try RawHTTP.request(port: server.port, "GET", "/api/drafts/\(draft)/wizard?step=quantity"))
        #expect((resumed["prompt"] as? [String])?.last == "Quantity [5]: ", "\(resumed)")
        let review = try RawHTTP.request(port: server.port, "POST", "/api/drafts/\(draft)/wizard",
                                         headers: ["Content-Type": "application/json"], body: #"{"step":"quantity","answer":""}"#)
        #expect(review.status == 200)
        let saved = try RawHTTP.request(port: server.port, "POST", "/api/drafts/\(draft)/wizard",
                                        headers: ["Content-Type": "application/json"], body: #"{"step":"review","answer":"s"}"#)
        #expect(saved.status == 201, "\(saved.body)")
        #expect(server.stop().status == 0)
        let listed = try server.database.stockroom("items", "list", "--format", "json")
        let items = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(items.map { $0["name"] as? String } == ["Lamp"])
        #expect((items.first?["status"] as? [String: Any])?["quantity"] as? Int == 5)
    }
}
