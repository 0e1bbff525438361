import Foundation
import Inventory
import Testing

@Suite struct EventPresentationTests {
    static let id = UUID(uuidString: "01937f4e-1111-7000-8000-00000000000a")!

    static func changed(name: (String, String)? = nil, color: (Color?, Color?)? = nil,
                        status: (Status, Status)? = nil) -> ItemEvent {
        .changed(ItemChanges(
            name: name.flatMap { FieldChange(from: $0.0, to: $0.1) },
            color: color.flatMap { FieldChange(from: $0.0, to: $0.1) },
            status: status.flatMap { FieldChange(from: $0.0, to: $0.1) })!)
    }

    @Test(arguments: [
        (changed(status: (.inStock(quantity: 5), .inStock(quantity: 3))), "Quantity 5 -> 3"),
        (changed(status: (.inStock(quantity: 5), .outOfStock(isOnBackOrder: true))), "Out of stock: on back order"),
        (changed(status: (.outOfStock(isOnBackOrder: false), .outOfStock(isOnBackOrder: true))), "Out of stock: on back order"),
        (changed(status: (.outOfStock(isOnBackOrder: true), .outOfStock(isOnBackOrder: false))), "Out of stock"),
        (changed(status: (.outOfStock(isOnBackOrder: true), .inStock(quantity: 12))), "In stock: 12"),
        (changed(name: ("Mug", "Blue mug")), "Renamed 'Mug' -> 'Blue mug'"),
        (changed(color: (nil, .red)), "Colour none -> red"),
        (changed(color: (.blue, nil)), "Colour blue -> none"),
        (changed(name: ("Mug", "Cup"), color: (.blue, .green), status: (.inStock(quantity: 1), .inStock(quantity: 2))),
         "Renamed 'Mug' -> 'Cup'; Colour blue -> green; Quantity 1 -> 2"),
        (.added(Item(id: id, name: "Mug", color: .blue, status: .inStock(quantity: 5))), "Added 'Mug', blue, In stock: 5"),
        (.added(Item(id: id, name: "Lamp", color: nil, status: .outOfStock(isOnBackOrder: false))), "Added 'Lamp', no colour, Out of stock"),
        (.deleted, "Deleted"),
    ])
    func eventsReadAsWords(event: ItemEvent, words: String) {
        #expect(Presentation.text(for: event) == words)
    }

    @Test func aChangeToTheSameValueIsNoChange() {
        #expect(FieldChange(from: "Mug", to: "Mug") == nil)
        #expect(ItemChanges(name: nil, color: nil, status: nil) == nil)
        let item = Item(id: Self.id, name: "Mug")
        #expect(ItemChanges(from: item, to: item) == nil)
    }

    @Test func historyIsATableOldestFirst() {
        let events = [
            RecordedItemEvent(itemID: Self.id, version: 1, recordedAt: "2026-11-22T10:00:00.000Z",
                              event: .added(Item(id: Self.id, name: "Mug", color: nil, status: .inStock(quantity: 5)))),
            RecordedItemEvent(itemID: Self.id, version: 2, recordedAt: "2026-11-22T10:05:00.000Z",
                              event: Self.changed(status: (.inStock(quantity: 5), .inStock(quantity: 3)))),
            RecordedItemEvent(itemID: Self.id, version: 3, recordedAt: "2026-11-22T11:00:00.000Z", event: .deleted),
        ]
        #expect(Presentation.history(events) == [
            "VERSION  TIME                      CHANGE",
            "1        2026-11-22T10:00:00.000Z  Added 'Mug', no colour, In stock: 5",
            "2        2026-11-22T10:05:00.000Z  Quantity 5 -> 3",
            "3        2026-11-22T11:00:00.000Z  Deleted",
        ])
    }

    @Test func jsonCarriesVersionKindTimeAndPayload() throws {
        let event = RecordedItemEvent(itemID: Self.id, version: 2, recordedAt: "2026-11-22T10:05:00.000Z",
                                      event: Self.changed(name: ("Mug", "Cup \"2\""), color: (nil, .red)))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(JSONPresentation.object(for: event).utf8)) as? [String: Any])
        #expect(object["version"] as? Int == 2)
        #expect(object["kind"] as? String == "changed")
        #expect(object["recordedAt"] as? String == "2026-11-22T10:05:00.000Z")
        #expect((object["name"] as? [String: Any])?["to"] as? String == "Cup \"2\"")
        #expect((object["color"] as? [String: Any])?["from"] is NSNull)
        #expect(object["status"] is NSNull)
    }

    /// How a change was made follows what it changed: the units of an adjustment in words, and
    /// in JSON only the facts an event has, so one without them prints as before (migration 0011).
    @Test func anAdjustmentAndAnOriginFollowTheChange() throws {
        let replica = UUID(uuidString: "01937f4e-aaaa-7000-8000-0000000000a1")!
        let intent = UUID(uuidString: "01937f4e-bbbb-7000-8000-0000000000b1")!
        let change = Self.changed(status: (.inStock(quantity: 5), .inStock(quantity: 2)))
        let plain = RecordedItemEvent(itemID: Self.id, version: 2, recordedAt: "2026-11-22T10:05:00.000Z", event: change)
        let sold = RecordedItemEvent(itemID: Self.id, version: 2, recordedAt: "2026-11-22T10:05:00.000Z", event: change,
                                     adjustedBy: -3, origin: replica, intentID: intent)
        let received = RecordedItemEvent(itemID: Self.id, version: 2, recordedAt: "2026-11-22T10:05:00.000Z",
                                         event: Self.changed(status: (.inStock(quantity: 2), .inStock(quantity: 5))), adjustedBy: 3)
        #expect(Presentation.text(for: plain) == "Quantity 5 -> 2")
        #expect(Presentation.text(for: sold) == "Quantity 5 -> 2 (adjusted by -3)")
        #expect(Presentation.text(for: received) == "Quantity 2 -> 5 (adjusted by +3)")
        #expect(Presentation.history([sold]).last == "2        2026-11-22T10:05:00.000Z  Quantity 5 -> 2 (adjusted by -3)")
        #expect(Presentation.eventLine(PositionedItemEvent(position: 7, recorded: sold), name: "Mug")
            .hasSuffix("Quantity 5 -> 2 (adjusted by -3)"))

        let base = JSONPresentation.object(for: plain)
        #expect(!base.contains("adjustedBy") && !base.contains("origin") && !base.contains("intentId"))
        #expect(JSONPresentation.object(for: sold) == base.dropLast()
            + ",\"adjustedBy\":-3,\"origin\":\"\(replica.lowercasedString)\",\"intentId\":\"\(intent.lowercasedString)\"}")
        #expect(JSONPresentation.object(for: PositionedItemEvent(position: 7, recorded: sold)).hasPrefix("{\"position\":7,"))
    }

    @Test func itemDetailsShowTheVersion() {
        #expect(Presentation.details(for: Item(id: Self.id, name: "Mug"), version: 4).last == "version:  4")
    }
}
