-- each index below serves one filter combination in that order without a sort step.
CREATE INDEX items_by_name ON items (name, id);