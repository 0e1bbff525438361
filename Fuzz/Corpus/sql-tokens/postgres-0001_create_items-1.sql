
-- `stockroom items list` orders by name then id, optionally filtered by status and colour;