
-- No item has an empty history: each existing item gets version 1, 'added' with the item as it
-- stands now, dated by its last change (updated_at), since the history before is unknown.
INSERT INTO item_events (item_id, version, kind, recorded_at, to_name, to_color, to_status, to_quantity, to_is_on_back_order)
SELECT id, 1, 'added', updated_at, name, color, status, quantity, is_on_back_order
FROM items
ORDER BY id;