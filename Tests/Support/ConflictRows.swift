/// A conflict's draft (`kind = 'resolving'`, migration 0012) written by hand, as the `sqlite3`
/// shell or `psql` would: the same SQL on both engines. The store and CLI tests read it back
/// through the codec, and change one column at a time to prove the CHECKs refuse it.
public enum ConflictRows {
    public static let draftID = "01937f4e-1111-7000-8000-00000000000a"
    public static let itemID = "01937f4e-3333-7000-8000-00000000000c"
    public static let origin = "01937f4e-4444-7000-8000-00000000000d"
    public static let madeAt = "2026-11-28T10:00:00.000Z"

    /// Every column of `drafts` with the value of a valid row: "3 sold at the stall while the
    /// hub had 2", a keyboard now out of stock on the hub, 1 missing.
    public static let oversold: [(column: String, value: String)] = [
        ("id", "'\(draftID)'"), ("kind", "'resolving'"), ("source_item_id", "NULL"), ("item_id", "'\(itemID)'"),
        ("name", "'Keyboard'"), ("color", "'blue'"), ("status", "'out_of_stock'"), ("quantity", "NULL"),
        ("is_on_back_order", "0"), ("created_at", "'2026-11-28T11:00:00.000Z'"), ("updated_at", "'2026-11-28T11:00:00.000Z'"),
        ("location", "NULL"),
        ("conflict_reason", "'oversold'"), ("conflict_origin", "'\(origin)'"), ("conflict_made_at", "'\(madeAt)'"),
        ("conflict_hub_holds_item", "1"), ("conflict_adjustment", "-3"), ("conflict_missing", "1"),
        ("shown_name", "'Keyboard'"), ("shown_color", "'blue'"), ("shown_status", "'out_of_stock'"), ("shown_quantity", "NULL"),
        ("shown_is_on_back_order", "0"), ("shown_location", "'Shelf B3'"),
        ("wanted_name", "'Keyboard'"), ("wanted_color", "'blue'"), ("wanted_status", "'out_of_stock'"), ("wanted_quantity", "NULL"),
        ("wanted_is_on_back_order", "0"), ("wanted_location", "'Shelf B3'"),
    ]

    /// The INSERT of ``oversold`` with `changes` (column: SQL value) applied.
    public static func insert(_ changes: [String: String] = [:]) -> String {
        let row = oversold.map { ($0.column, changes[$0.column] ?? $0.value) }
        return "INSERT INTO drafts (\(row.map(\.0).joined(separator: ", "))) VALUES (\(row.map(\.1).joined(separator: ", ")));"
    }

    /// A wanted delete of an item others changed: no numbers, no wanted item.
    public static let changedBeforeDelete: [String: String] = [
        "conflict_reason": "'changed_before_delete'", "conflict_adjustment": "NULL", "conflict_missing": "NULL",
        "wanted_name": "NULL", "wanted_color": "NULL", "wanted_status": "NULL", "wanted_is_on_back_order": "NULL",
        "wanted_location": "NULL",
    ]

    /// Changes that each break one rule of the table, named by the rule.
    public static let malformed: [(rule: String, changes: [String: String])] = [
        ("unknown reason", ["conflict_reason": "'sold_out'"]),
        ("a conflict's draft without a reason", ["conflict_reason": "NULL", "conflict_adjustment": "NULL", "conflict_missing": "NULL"]),
        ("an origin that is not a UUID", ["conflict_origin": "'stall'"]),
        ("no origin", ["conflict_origin": "NULL"]),
        ("a time that is not one", ["conflict_made_at": "'yesterday'"]),
        ("no time", ["conflict_made_at": "NULL"]),
        ("a flag that is not 0 or 1", ["conflict_hub_holds_item": "2"]),
        ("no flag", ["conflict_hub_holds_item": "NULL"]),
        ("oversold without missing units", ["conflict_missing": "NULL"]),
        ("oversold without its adjustment", ["conflict_adjustment": "NULL"]),
        ("no unit missing", ["conflict_missing": "0"]),
        ("missing units for another reason", ["conflict_reason": "'quantity_overflow'"]),
        ("an adjustment for a reason without one", ["conflict_reason": "'overtaken'", "conflict_missing": "NULL"]),
        ("no item shown", ["shown_name": "NULL", "shown_color": "NULL", "shown_status": "NULL", "shown_is_on_back_order": "NULL", "shown_location": "NULL"]),
        ("a shown status without its quantity", ["shown_status": "'in_stock'", "shown_is_on_back_order": "NULL"]),
        ("a shown colour unknown", ["shown_color": "'mauve'"]),
        ("a wanted item without a status", ["wanted_status": "NULL", "wanted_is_on_back_order": "NULL"]),
        ("a wanted status with a quantity and a flag", ["wanted_quantity": "5"]),
        ("a wanted location padded", ["wanted_location": "' Shelf'"]),
        ("a conflict's draft naming a source", ["source_item_id": "'\(itemID)'"]),
        ("a new item's draft with a conflict", ["kind": "'adding'"]),
        ("a new item's draft with an item shown only",
         ["kind": "'adding'", "conflict_reason": "NULL", "conflict_origin": "NULL", "conflict_made_at": "NULL",
          "conflict_hub_holds_item": "NULL", "conflict_adjustment": "NULL", "conflict_missing": "NULL"]),
    ]
}
