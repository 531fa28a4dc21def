-- Version 1 -> 2: race sites of real conflicts, call stacks of access sites, inlined frames,
-- heap blocks (db-schema/SCHEMA.md).
ALTER TABLE locations ADD COLUMN inlined_into INTEGER;
ALTER TABLE access_sites ADD COLUMN context INTEGER;
CREATE TABLE race_site_instances (
    run_id   INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    race_id  INTEGER NOT NULL,
    ordinal  INTEGER NOT NULL,
    a_ordinal INTEGER NOT NULL,
    b_ordinal INTEGER NOT NULL,
    pair_id  INTEGER NOT NULL,
    variable TEXT NOT NULL,
    PRIMARY KEY (run_id, race_id, ordinal)
) WITHOUT ROWID;
CREATE TABLE heap_blocks (
    run_id       INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    id           INTEGER NOT NULL,
    lo           INTEGER NOT NULL,
    hi           INTEGER NOT NULL,
    process      INTEGER,
    event_index  INTEGER,
    location     INTEGER,
    context      INTEGER,
    PRIMARY KEY (run_id, id)
) WITHOUT ROWID;
