-- Replicas that push through `stockroom serve` (issue 36): a hub remembers where each replica
-- that pushed through a server registered (issue 35's registration: the machine and the path
-- of its file). A batch naming a replica registered elsewhere is refused, so that no replica
-- can push under another's origin: a copy of a replica file registers anew under its own id
-- before it pushes (docs/replicas.md, "The sync protocol"). A direct hub (a file, PostgreSQL)
-- needs none: a replica that can open the hub's database is trusted with it.

CREATE TABLE sync_origins (
    -- The replica: the origin of its intents.
    replica_id TEXT NOT NULL PRIMARY KEY
        CHECK (length(replica_id) = 36 AND replica_id GLOB '[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]'),
    -- Where it registered, as its sync_replica row says.
    machine_id TEXT NOT NULL CHECK (length(machine_id) > 0),
    path TEXT NOT NULL CHECK (length(path) > 0),
    -- Its first batch through a server (ISO-8601 UTC).
    first_seen TEXT NOT NULL CHECK (first_seen GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T*Z')
) STRICT;

-- A REPLICA remembers the items of the intents its hub applied until the pull that makes them
-- the hub's commits: filled in the transaction that empties the outbox, emptied by the pull's.
-- A sync killed between the two re-reads them at its next pull; without it, an item the hub
-- wrote nothing to (a resolution of a conflict resolved elsewhere first) would keep the
-- replica's own write for ever.
CREATE TABLE sync_rereads (
    item_id TEXT NOT NULL PRIMARY KEY CHECK (length(item_id) = 36)
) STRICT, WITHOUT ROWID;
