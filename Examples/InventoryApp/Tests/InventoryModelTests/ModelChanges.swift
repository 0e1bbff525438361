import InventoryModel
import Observation

/// Waiting for a model's state in tests, woken by the model's own change notifications
/// (Observation), never by a timer: a state that never comes fails by the suite's time limit.
@MainActor enum ModelChanges {
    /// Returns once `condition` holds, checking it again at each change of `model`.
    static func waitUntil(_ model: InventoryModel, _ condition: @MainActor () -> Bool) async {
        while !condition() {
            await nextChange(of: model)
        }
    }

    /// Returns at the model's next change.
    private static func nextChange(of model: InventoryModel) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            withObservationTracking {
                _ = model.inventory
                _ = model.isLoaded
                _ = model.draft
                _ = model.failure
                _ = model.syncState
                _ = model.conflicts
                _ = model.isSyncing
                _ = model.lastSync
            } onChange: {
                continuation.resume()
            }
        }
    }
}
