import Inventory

/// The item's shape as the tests expect it, derived from the field declaration (``ItemField``).
/// A test spells out the fields its items give values to (the id, name, colour and status of
/// the first schema) and takes from here every field added since, as an item without a value
/// for it shows it: a field added by docs/adding-a-field.md is then expected by every test of
/// JSON, CSV and the text table without editing them (docs/adding-a-field.md promises it), and
/// a front that drops such a field, reorders it or shows a value it does not have still fails.
public enum ItemShape {
    /// The fields a test item has no value for, in the declaration's order (today `location`):
    /// the optional texts. The switch has no `default:`, so a new kind of field does not
    /// compile here until it says whether the tests spell it out.
    public static var emptyFields: [ItemField] {
        ItemField.allCases.filter { field in
            switch field.kind {
            case .name, .color, .status: false
            case .optionalText: true
            }
        }
    }

    /// `,"location":null` for each of ``emptyFields``: the members that follow the status in
    /// an item's JSON object (before its `version`, when it has one).
    public static var jsonNulls: String {
        emptyFields.map { #","\#($0.key)":null"# }.joined()
    }

    /// `,location` for each of ``emptyFields``: the CSV header's columns after
    /// `is_on_back_order` (before `created_at` in an export).
    public static var csvColumns: String {
        emptyFields.map { "," + $0.key }.joined()
    }

    /// An empty cell for each of ``emptyFields``, with its separator: what follows a CSV row's
    /// `is_on_back_order` cell.
    public static var csvEmptyCells: String {
        String(repeating: ",", count: emptyFields.count)
    }

    /// `-` for each of ``emptyFields``: the text table's cells after the status.
    public static var tableDashes: [String] {
        emptyFields.map { _ in "-" }
    }
}
