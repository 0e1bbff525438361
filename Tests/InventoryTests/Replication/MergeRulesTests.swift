import FoundationEssentials
import Inventory
import Testing

/// The merge rules of docs/replicas.md, case by case, in the words of the issue that asked for them.
@Suite struct MergeRulesTests {
    let stall = UUID(uuidString: "00000000-0000-7000-8000-00000000000a")!
    let van = UUID(uuidString: "00000000-0000-7000-8000-00000000000b")!
    let keyboard = Item(id: UUID(uuidString: "00000000-0000-7000-8000-000000000001")!, name: "Keyboard",
                        color: .blue, status: .inStock(quantity: 5))

    func intent(_ change: IntentChange, from origin: UUID? = nil, copy: Item? = nil, madeAt: String = "2026-11-28T10:00:00.000Z") -> Intent {
        Intent(itemID: keyboard.id, origin: origin ?? stall, madeAt: madeAt, replicaCopy: copy ?? keyboard, change: change)
    }

    func hub(_ item: Item?, lastVersionByOthers: Int = 1) -> HubItemState {
        HubItemState(presence: item.map { .present($0) } ?? .deleted, lastVersionByOthers: lastVersionByOthers)
    }

    func with(_ item: Item, status: Status) -> Item {
        var item = item
        item.status = status
        return item
    }

    @Test func twoStallsEachSellingOneFromFiveLeaveThree() {
        let first = MergeRules.decide(intent(.adjust(by: -1)), hub: hub(keyboard))
        guard case .update(let afterFirst) = first.write else { Issue.record("not written"); return }
        let second = MergeRules.decide(intent(.adjust(by: -1), from: van), hub: hub(afterFirst))
        #expect(second.write == .update(with(keyboard, status: .inStock(quantity: 3))))
        #expect(first.opens == nil && second.opens == nil)
    }

    @Test func threeSoldAtTheStallWhileTheHubHadTwoIsOutOfStockAndAConflictMissingOne() {
        let sale = intent(.adjust(by: -3))
        let decision = MergeRules.decide(sale, hub: hub(with(keyboard, status: .inStock(quantity: 2))))
        let outOfStock = with(keyboard, status: .outOfStock(isOnBackOrder: false))
        #expect(decision.write == .update(outOfStock))
        #expect(decision.opens?.reason == .oversold(adjustment: -3, missing: 1))
        #expect(decision.opens?.id == sale.id)
        #expect(decision.opens?.hubItem == outOfStock)
    }

    @Test func anItemAlreadyOutOfStockKeepsItsBackOrderFlagWhenOversold() {
        let onBackOrder = with(keyboard, status: .outOfStock(isOnBackOrder: true))
        let decision = MergeRules.decide(intent(.adjust(by: -2)), hub: hub(onBackOrder))
        #expect(decision.write == MergeDecision.Write.none)
        #expect(decision.opens?.reason == .oversold(adjustment: -2, missing: 2))
    }

    @Test func anAdjustmentPastTheLargestQuantityIsAConflictAndChangesNothing() {
        let decision = MergeRules.decide(intent(.adjust(by: 1)), hub: hub(with(keyboard, status: .inStock(quantity: .max))))
        #expect(decision.write == MergeDecision.Write.none)
        #expect(decision.opens?.reason == .quantityOverflow(adjustment: 1))
    }

    @Test func aSetAppliesFieldByFieldAndTheOvertakenFieldsMakeTheConflict() {
        // The stall renames the keyboard and makes it red; the hub's own user made it green meanwhile.
        var wanted = keyboard
        wanted.name = "Keyboard (DE)"
        wanted.color = .red
        let set = intent(.set(ItemChanges(from: keyboard, to: wanted)!))
        var held = keyboard
        held.color = .green
        let decision = MergeRules.decide(set, hub: hub(held))
        var expected = held
        expected.name = "Keyboard (DE)"
        #expect(decision.write == .update(expected))
        #expect(decision.opens?.reason == .overtaken(ItemChanges(name: nil, color: FieldChange(from: .blue, to: .red), status: nil)!))
        var proposed = expected
        proposed.color = .red
        #expect(decision.opens?.proposedItem == proposed, "the draft starts as the hub's item with the replica's values on top")
    }

    @Test func aSetTheHubAlreadyHoldsChangesNothing() {
        var wanted = keyboard
        wanted.name = "Keyboard (DE)"
        let decision = MergeRules.decide(intent(.set(ItemChanges(from: keyboard, to: wanted)!)), hub: hub(wanted))
        #expect(decision.changesNothing)
    }

    @Test func aDeleteOfAnItemOthersChangedIsAConflictButTheReplicasOwnChangesDoNotCount() {
        let others = MergeRules.decide(intent(.delete(lastPulledVersion: 2)), hub: hub(keyboard, lastVersionByOthers: 3))
        #expect(others.write == MergeDecision.Write.none)
        #expect(others.opens?.reason == .changedBeforeDelete)
        #expect(others.opens?.proposedItem == nil, "saving the draft alone deletes, as the replica wanted")
        let own = MergeRules.decide(intent(.delete(lastPulledVersion: 2)), hub: hub(keyboard, lastVersionByOthers: 2))
        #expect(own.write == .delete)
        #expect(own.opens == nil)
    }

    @Test func aChangeToAnItemDeletedMeanwhileIsAConflictShowingTheReplicasCopy() {
        let sale = intent(.adjust(by: -1))
        let decision = MergeRules.decide(sale, hub: hub(nil))
        #expect(decision.write == MergeDecision.Write.none)
        #expect(decision.opens?.reason == .deletedBeforeChange(.adjust(by: -1)))
        #expect(decision.opens?.shownItem == keyboard)
        #expect(decision.opens?.proposedItem == with(keyboard, status: .inStock(quantity: 4)))
    }

    @Test func theFirstResolutionToReachTheHubWinsAndADifferentSecondIsANewConflict() {
        let oversold = MergeRules.decide(intent(.adjust(by: -3)), hub: hub(with(keyboard, status: .inStock(quantity: 2)))).opens!
        let held = oversold.hubItem!
        let recount = with(held, status: .inStock(quantity: 4))
        let first = intent(.resolve(conflictID: oversold.id, choice: .item(recount)))
        let firstDecision = MergeRules.decide(first, hub: hub(held), openConflict: oversold)
        #expect(firstDecision.write == .update(recount))
        #expect(firstDecision.closes == oversold.id)
        let second = intent(.resolve(conflictID: oversold.id, choice: .item(with(held, status: .inStock(quantity: 7)))), from: van)
        let secondDecision = MergeRules.decide(second, hub: hub(recount), openConflict: nil)
        #expect(secondDecision.write == MergeDecision.Write.none)
        #expect(secondDecision.opens?.reason == .resolvedMeanwhile(.item(with(held, status: .inStock(quantity: 7)))))
        let same = intent(.resolve(conflictID: oversold.id, choice: .item(recount)), from: van)
        #expect(MergeRules.decide(same, hub: hub(recount), openConflict: nil).changesNothing)
    }

    @Test func keepingTheHubsValueClosesTheConflictAndWritesNothing() {
        let conflict = MergeRules.decide(intent(.adjust(by: -9)), hub: hub(keyboard)).opens!
        let decision = MergeRules.decide(intent(.resolve(conflictID: conflict.id, choice: .keepHub)), hub: hub(conflict.hubItem),
                                         openConflict: conflict)
        #expect(decision == MergeDecision(write: .none, closes: conflict.id))
    }

    @Test func anItemDeletedOnTheHubComesBackUnderTheResolutionsOwnId() {
        let conflict = MergeRules.decide(intent(.adjust(by: -1)), hub: hub(nil)).opens!
        let resolution = intent(.resolve(conflictID: conflict.id, choice: .item(conflict.proposedItem!)))
        let decision = MergeRules.decide(resolution, hub: hub(nil), openConflict: conflict)
        guard case .insert(let back) = decision.write else { Issue.record("not inserted: \(decision.write)"); return }
        #expect(back.id == resolution.id)
        #expect(back.name == keyboard.name && back.status == .inStock(quantity: 4))
        #expect(MergeRules.localWrite(of: resolution, on: nil) == decision.write, "the replica replays it to the same id")
    }

    @Test func noRuleReadsTheReplicasClock() {
        let ids = UUID()
        for madeAt in ["1970-01-01T00:00:00.000Z", "2026-11-28T10:00:00.000Z", "2999-12-31T23:59:59.999Z"] {
            let sale = Intent(id: ids, itemID: keyboard.id, origin: stall, madeAt: madeAt, replicaCopy: keyboard, change: .adjust(by: -7))
            let decision = MergeRules.decide(sale, hub: hub(keyboard))
            #expect(decision.write == .update(with(keyboard, status: .outOfStock(isOnBackOrder: false))))
            #expect(decision.opens?.reason == .oversold(adjustment: -7, missing: 2))
        }
    }
}
