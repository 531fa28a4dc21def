-- Version 2 -> 3: locks held during race events, the race each later-partition race is ordered
-- after with its chain of events, thread creation events, display names of sync objects
-- (db-schema/SCHEMA.md). Runs written before have no rows in the new tables.
ALTER TABLE processes ADD COLUMN creation_event INTEGER;
ALTER TABLE sync_objects ADD COLUMN label TEXT;
CREATE TABLE held_locks (
    run_id         INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    process        INTEGER NOT NULL,
    event_index    INTEGER NOT NULL,
    ordinal        INTEGER NOT NULL,
    object         INTEGER NOT NULL,
    acquire_index  INTEGER NOT NULL,
    PRIMARY KEY (run_id, process, event_index, ordinal)
) WITHOUT ROWID;
CREATE TABLE race_orderings (
    run_id         INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    race_id        INTEGER NOT NULL,
    after_race_id  INTEGER NOT NULL,
    PRIMARY KEY (run_id, race_id)
) WITHOUT ROWID;
CREATE TABLE race_ordering_steps (
    run_id       INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    race_id      INTEGER NOT NULL,
    ordinal      INTEGER NOT NULL,
    process      INTEGER NOT NULL,
    event_index  INTEGER NOT NULL,
    via          TEXT NOT NULL CHECK (via IN ('start', 'program-order', 'synchronization',
                                             'event-control')),
    kind         TEXT NOT NULL,
    object       TEXT NOT NULL,
    location     INTEGER,
    context      INTEGER,
    PRIMARY KEY (run_id, race_id, ordinal)
) WITHOUT ROWID;
