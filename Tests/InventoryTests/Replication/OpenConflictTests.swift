import Foundation
import Inventory
import Testing

/// A conflict as a person resolves it (`OpenConflict`, `Draft.resolving`): what it keeps of a
/// `Conflict`, and that the rules judge a resolution of the conflict it gives back exactly as
/// one of the original.
@Suite struct OpenConflictTests {
    let stall = UUID(uuidString: "00000000-0000-7000-8000-00000000000a")!
    let keyboard = Item(id: UUID(uuidString: "00000000-0000-7000-8000-000000000001")!, name: "Keyboard",
                        color: .blue, status: .inStock(quantity: 5), location: ItemLocation(stored: "Shelf B3"))

    func intent(_ change: IntentChange, copy: Item? = nil) -> Intent {
        Intent(itemID: keyboard.id, origin: stall, madeAt: "2026-11-28T10:00:00.000Z", replicaCopy: copy ?? keyboard, change: change)
    }

    func with(_ item: Item, _ change: (inout Item) -> Void) -> Item {
        var item = item
        change(&item)
        return item
    }

    /// One conflict of each reason, as MergeRules opens them, with the hub's state it was opened on.
    var conflicts: [(Conflict, HubItemState)] {
        let renamed = with(keyboard) { $0.name = "Keyboard (DE)"; $0.color = .red }
        let green = with(keyboard) { $0.color = .green }
        let two = with(keyboard) { $0.status = .inStock(quantity: 2) }
        let most = with(keyboard) { $0.status = .inStock(quantity: .max) }
        let cases: [(Intent, HubItemState)] = [
            (intent(.set(ItemChanges(from: keyboard, to: renamed)!)), HubItemState(presence: .present(green))),
            (intent(.adjust(by: -3)), HubItemState(presence: .present(two))),
            (intent(.adjust(by: 1)), HubItemState(presence: .present(most))),
            (intent(.delete(lastPulledVersion: 1)), HubItemState(presence: .present(green), lastVersionByOthers: 2)),
            (intent(.adjust(by: -1)), HubItemState(presence: .deleted)),
            (intent(.resolve(conflictID: UUID(), choice: .item(renamed))), HubItemState(presence: .present(green))),
            (intent(.resolve(conflictID: UUID(), choice: .delete)), HubItemState(presence: .present(green))),
        ]
        return cases.map { intent, hub in (MergeRules.decide(intent, hub: hub).opens!, hub) }
    }

    @Test func everyReasonIsReached() {
        #expect(Set(conflicts.map(\.0.reason.case)) == Set(ConflictReason.Case.allCases))
    }

    @Test func itKeepsWhatAPersonIsShownAndWhatTheReplicaWanted() {
        let oversold = conflicts[1].0
        let open = OpenConflict(oversold)
        #expect(open.shown == oversold.hubItem && open.hubHoldsItem)
        #expect(open.wanted == oversold.proposedItem)
        #expect(open.origin == stall && open.madeAt == "2026-11-28T10:00:00.000Z")
        #expect(open.reason == .oversold && open.adjustment == -3 && open.missing == 1)
        let deleted = OpenConflict(conflicts[4].0)
        #expect(!deleted.hubHoldsItem && deleted.shown == keyboard)
        #expect(deleted.wanted == with(keyboard) { $0.status = .inStock(quantity: 4) })
        #expect(deleted.adjustment == nil && deleted.missing == nil)
        #expect(OpenConflict(conflicts[3].0).wanted == nil, "a wanted delete")
    }

    @Test func theDraftStartsAsTheWantedItemOrTheShownOneForADelete() {
        for (conflict, _) in conflicts {
            let draft = Draft.resolution(of: conflict)
            #expect(draft.case == .resolving)
            #expect(draft.sourceItemID == nil)
            #expect(draft.item == (conflict.proposedItem ?? conflict.shownItem), "\(conflict.reason)")
            #expect(draft.item.id == conflict.itemID)
            #expect(IdentifiedDraft(id: conflict.id, draft: draft).conflict?.id == conflict.id)
        }
    }

    @Test func editingTheDraftKeepsItsConflict() throws {
        let conflict = conflicts[1].0
        let edited = try Draft.resolution(of: conflict).applying(ItemEdit(status: .inStock(quantity: 4)))
        #expect(edited.openConflict == OpenConflict(conflict))
        #expect(edited.item.status == .inStock(quantity: 4) && edited.item.id == conflict.itemID)
    }

    /// What the rules read of an open conflict (its id, hub item and item shown) and the choice
    /// a save makes survive the trip through what the drafts table keeps: every resolution a
    /// person can make is judged the same against the original and the rebuilt conflict.
    @Test func theRulesJudgeAResolutionOfTheRebuiltConflictAsOfTheOriginal() {
        for (conflict, hub) in conflicts {
            let open = OpenConflict(conflict)
            let rebuilt = open.conflict(id: conflict.id)
            #expect(rebuilt.id == conflict.id && rebuilt.itemID == conflict.itemID, "\(conflict.reason)")
            #expect(rebuilt.hubItem == conflict.hubItem && rebuilt.shownItem == conflict.shownItem, "\(conflict.reason)")
            #expect(rebuilt.proposedItem == conflict.proposedItem, "\(conflict.reason)")
            #expect(rebuilt.reason.case == conflict.reason.case)
            let edit = with(open.startingItem) { $0.name = "Chosen" }
            for saved in [open.startingItem, open.shown, edit] {
                #expect(open.choice(saving: saved) == conflict.choice(saving: saved), "\(conflict.reason)")
            }
            let afterwards = HubItemState(presence: conflict.hubItem.map { .present($0) } ?? hub.presence)
            for choice in [ConflictChoice.keepHub, .delete, .item(open.startingItem), .item(edit)] {
                let resolution = Intent(itemID: conflict.itemID, origin: stall, madeAt: "2026-11-28T11:00:00.000Z",
                                        replicaCopy: open.shown, change: .resolve(conflictID: conflict.id, choice: choice))
                #expect(MergeRules.decide(resolution, hub: afterwards, openConflict: rebuilt)
                        == MergeRules.decide(resolution, hub: afterwards, openConflict: conflict), "\(conflict.reason), \(choice)")
            }
        }
    }

    @Test func anAdditionWhoseIdTheHubDeletedShowsTheItemAdded() {
        let added = with(keyboard) { $0.name = "Added" }
        let conflict = MergeRules.decide(Intent(itemID: keyboard.id, origin: stall, madeAt: "2026-11-28T10:00:00.000Z",
                                                replicaCopy: nil, change: .add(added)),
                                         hub: HubItemState(presence: .deleted)).opens!
        #expect(conflict.shownItem == nil)
        let open = OpenConflict(conflict)
        #expect(open.shown == added && !open.hubHoldsItem)
    }

    @Test func theDraftShowsBothSidesTheReplicaWhenAndWhy() {
        let conflict = conflicts[1].0
        let entry = IdentifiedDraft(id: conflict.id, draft: .resolution(of: conflict))
        let lines = Presentation.details(for: entry)
        #expect(lines.contains("kind:     resolving a conflict"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("reason:") && $0.contains("oversold, 1 missing") }, "\(lines)")
        #expect(lines.contains("replica:  \(stall.lowercasedString)"), "\(lines)")
        #expect(lines.contains("made at:  2026-11-28T10:00:00.000Z"), "\(lines)")
        #expect(lines.contains("hub:      Keyboard  blue  Out of stock  Shelf B3"), "\(lines)")
        #expect(lines.contains("wanted:   Keyboard  blue  Out of stock  Shelf B3"), "\(lines)")
        #expect(Presentation.table(for: [entry]).last?.contains("resolving: oversold, 1 missing") == true)
        let deleted = IdentifiedDraft(id: UUID(), draft: .resolution(of: conflicts[3].0))
        #expect(Presentation.details(for: deleted).contains("wanted:   the item deleted"))
    }

    @Test func itsJSONIsTheDraftsWithTheConflictLast() throws {
        let conflict = conflicts[4].0
        let entry = IdentifiedDraft(id: conflict.id, draft: .resolution(of: conflict))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(JSONPresentation.object(for: entry).utf8)) as? [String: Any])
        #expect(object["case"] as? String == "resolving")
        #expect(object["sourceItemId"] is NSNull)
        let member = try #require(object["conflict"] as? [String: Any])
        #expect(member["reason"] as? String == "deleted_before_change")
        #expect(member["origin"] as? String == stall.lowercasedString)
        #expect(member["madeAt"] as? String == "2026-11-28T10:00:00.000Z")
        #expect(member["hubHoldsItem"] as? Bool == false)
        #expect((member["shown"] as? [String: Any])?["name"] as? String == "Keyboard")
        #expect(((member["wanted"] as? [String: Any])?["status"] as? [String: Any])?["quantity"] as? Int == 4)
        #expect(member["adjustment"] is NSNull && member["missing"] is NSNull)
        #expect(JSONPresentation.object(for: IdentifiedDraft(draft: .newItem())).contains("conflict") == false)
    }
}
