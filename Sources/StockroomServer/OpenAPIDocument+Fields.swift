import Inventory

extension OpenAPIDocument {
    /// The members the schemas of an item take from the declaration of its fields
    /// (``ItemField``), so the document says what the handlers read and write: `Item`, `NewItem`,
    /// `ItemPatch` and the per-field pairs of `Event`.
    enum FieldSchemas {
        /// Where the schema of a field is used.
        enum Use {
            /// An item as answered: every field is there (null for none).
            case item
            /// An item as `POST /api/items` takes it: only the name is required.
            case newItem
            /// A merge patch: any field, null removes what can be none.
            case patch
        }

        /// The JSON schema of `field` for `use`.
        static func schema(of field: ItemField, for use: Use) -> String {
            switch field.kind {
            case .name:
                use == .newItem ? ##"{"type": "string", "minLength": 1}"## : ##"{"type": "string"}"##
            case .color:
                ##"{"oneOf": [{"$ref": "#/components/schemas/ColorName"}, {"type": "null"}]}"##
            case .status:
                use == .newItem
                    ? ##"{"allOf": [{"$ref": "#/components/schemas/Status"}], "description": "Left out: in stock with 1, as `items add` without a status.", "default": {"case": "inStock", "quantity": 1}}"##
                    : ##"{"$ref": "#/components/schemas/Status"}"##
            case .optionalText(let optional):
                ##"{"type": ["string", "null"], "maxLength": \##(optional.maximumLength), "description": "\##(optional.summary); null or blank for none"}"##
            }
        }

        /// `"key": schema` for every field, joined as members of an object.
        static func properties(for use: Use) -> String {
            ItemField.allCases.map { "\"\($0.key)\": \(schema(of: $0, for: use))" }.joined(separator: ", ")
        }

        /// The keys of every field, as a JSON array's items (`"name", "color", …`).
        static var keys: String {
            ItemField.allCases.map { "\"\($0.key)\"" }.joined(separator: ", ")
        }

        /// Each field's change in an event, `{"from":…,"to":…}` or null.
        static var changes: String {
            ItemField.allCases.map { "\"\($0.key)\": {\"type\": [\"object\", \"null\"]}" }.joined(separator: ", ")
        }
    }
}
