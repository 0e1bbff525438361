import Inventory
import StockroomStore
import TextFormats

/// How the web front spells the cases of the tagged enums, each derived from its tag type, so
/// that a new status, event kind or draft kind reaches the request bodies, the forms, the
/// OpenAPI document and the live page's script without being named here (the switches over the
/// tags are exhaustive: a new case is a compile error where it needs a rule of its own).
/// `StatusTagServerPathTests` walks every status tag through these paths.
enum TagSpellings {
    /// The `"case"` of each status tag in JSON, as JSONPresentation writes it, in tag order.
    static var statusCases: [String] { StatusCodec.jsonCaseNames }

    /// Every event kind as the API and the event stream name it (`ItemEvent.Case`).
    static var eventKinds: [String] { ItemEvent.Case.allCases.map(\.rawValue) }

    /// Every draft case as the API names it (`Draft.Case`).
    static var draftKinds: [String] { Draft.Case.allCases.map(\.rawValue) }

    /// Every list filter as `?status=` spells it (`ItemQuery.StatusFilter`).
    static var statusFilters: [String] { ItemQuery.StatusFilter.allCases.map(\.text) }

    /// `values` as a JSON array of strings, for the OpenAPI document and the page's script.
    static func jsonArray(_ values: [String]) -> String {
        JSONText.array(values.map { JSONText.string($0) })
    }

    /// The OpenAPI schema of a status of `tag`: its `"case"` and its associated value.
    static func statusSchema(for tag: StatusCodec.Tag) -> String {
        let name = StatusCodec.jsonCaseName(for: tag)
        return switch tag {
        case .inStock:
            #"{"type": "object", "required": ["case", "quantity"], "additionalProperties": false, "properties": {"case": {"const": "\#(name)"}, "quantity": {"type": "integer", "minimum": \#(Status.minimumQuantity)}}}"#
        case .outOfStock:
            #"{"type": "object", "required": ["case", "isOnBackOrder"], "additionalProperties": false, "properties": {"case": {"const": "\#(name)"}, "isOnBackOrder": {"type": "boolean"}}}"#
        }
    }

    /// The status a form's choice stands for, the choices spelled as the list filter: in stock
    /// (with the form's quantity), out of stock, on back order.
    static func status(for choice: ItemQuery.StatusFilter, quantity: () throws -> Int) rethrows -> Status {
        switch choice {
        case .inStock: .inStock(quantity: try quantity())
        case .outOfStock: .outOfStock(isOnBackOrder: false)
        case .onBackOrder: .outOfStock(isOnBackOrder: true)
        }
    }

    /// The form's choice for `status`: the filter that selects it and no status of another choice.
    static func choice(for status: Status) -> ItemQuery.StatusFilter {
        switch status {
        case .inStock: .inStock
        case .outOfStock(let isOnBackOrder): isOnBackOrder ? .onBackOrder : .outOfStock
        }
    }

    /// A choice as a form's `<option>` reads to a person.
    static func label(for choice: ItemQuery.StatusFilter) -> String {
        switch choice {
        case .inStock: "In stock"
        case .outOfStock: Presentation.text(for: .outOfStock(isOnBackOrder: false))
        case .onBackOrder: Presentation.text(for: .outOfStock(isOnBackOrder: true))
        }
    }
}
