import DraftFlow
import Foundation
import TextFormats

/// How the wizard's ``DraftWizard/Memory`` travels between two requests, since the server
/// keeps no wizard: as two query or form fields (the pages' redirects and hidden inputs, the
/// API's GET) and as a `remembered` JSON object (the API's answers and posts).
///
/// The terminal's wizard stays in memory between questions; over HTTP each request rebuilds
/// it from the stored draft, so what only the state machine knows (the quantity given before
/// answering "in stock?" with no) has to be handed back by the client.
enum WizardMemory {
    static let quantityField = "remembered-quantity"
    static let backOrderField = "remembered-back-order"

    /// The memory named by `form`'s two fields; nil when neither is there.
    static func parse(_ form: Form) throws -> DraftWizard.Memory? {
        let quantityText = form.nonEmpty(quantityField), backOrderText = form.nonEmpty(backOrderField)
        if quantityText == nil && backOrderText == nil { return nil }
        guard let quantityText, let backOrderText, let quantity = Int(quantityText), ["true", "false"].contains(backOrderText) else {
            throw Problem(.badRequest, "\(quantityField) (an integer) and \(backOrderField) (true or false) go together")
        }
        return DraftWizard.Memory(quantity: quantity, isOnBackOrder: backOrderText == "true")
    }

    /// The two fields as a query string's part (`name=value&name=value`).
    static func query(_ memory: DraftWizard.Memory) -> String {
        "\(quantityField)=\(memory.quantity)&\(backOrderField)=\(memory.isOnBackOrder)"
    }

    /// The two fields as hidden inputs of the step's form.
    static func hiddenInputs(_ memory: DraftWizard.Memory) -> String {
        "<input type=\"hidden\" name=\"\(quantityField)\" value=\"\(memory.quantity)\">"
            + "<input type=\"hidden\" name=\"\(backOrderField)\" value=\"\(memory.isOnBackOrder)\">"
    }

    /// The `remembered` object of the API.
    static func json(_ memory: DraftWizard.Memory) -> String {
        JSONText.object([("quantity", String(memory.quantity)), ("isOnBackOrder", memory.isOnBackOrder ? "true" : "false")])
    }

    /// The `remembered` object as a post carries it.
    struct Posted: Decodable {
        var quantity: Int
        var isOnBackOrder: Bool
        var memory: DraftWizard.Memory { DraftWizard.Memory(quantity: quantity, isOnBackOrder: isOnBackOrder) }
    }
}
