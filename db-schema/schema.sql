-- firstrace results database, schema version 3.
--
-- One database holds many runs (one `firstrace analyze TRACE -o DB` each). Every per-run table
-- is keyed by run_id first; ids inside a run (process, event index, race id, partition id, ...)
-- are exactly the analysis' ids, so `analyze --format json` and `report --format json` agree.
-- db-schema/SCHEMA.md documents every table, column and view.
--
-- This file creates the current schema in an empty database. Older databases are brought
-- forward by the migrations in db-schema/migrations/ (NNN-*.sql moves version NNN-1 to NNN).
-- The writer checks `application_id` (0x46525354, "FRST") and `user_version` before touching
-- a file: a foreign or newer database is refused, never modified.

PRAGMA application_id = 1179800404;
PRAGMA user_version = 3;

-- One analysed execution.
CREATE TABLE runs (
    id                  INTEGER PRIMARY KEY,
    program             TEXT,             -- traced executable, when the trace records it
    arguments           TEXT,             -- its command line (JSON array of strings), when known
    host                TEXT,             -- host the program ran on, when known
    started_at          TEXT,             -- program start, ISO 8601 UTC, when known
    analyzed_at         TEXT NOT NULL,    -- when this run was written, ISO 8601 UTC
    trace_path          TEXT NOT NULL,    -- the trace as given to `firstrace analyze`
    trace_format        TEXT NOT NULL,    -- 'std' or 'firstrace'
    tool_version        TEXT NOT NULL,    -- firstrace version that analysed it
    ordering            TEXT NOT NULL CHECK (ordering IN ('approximate', 'complete')),
    truncated           INTEGER NOT NULL DEFAULT 0 CHECK (truncated IN (0, 1)),
    truncation_reason   TEXT,
    transitive_budget_exceeded INTEGER NOT NULL DEFAULT 0,
    -- AnalysisCounts
    events              INTEGER NOT NULL,
    computation_events  INTEGER NOT NULL,
    accesses            INTEGER NOT NULL,
    processes           INTEGER NOT NULL,
    apparent            INTEGER NOT NULL,
    actual              INTEGER,          -- NULL in approximate ordering
    feasible            INTEGER NOT NULL,
    feasible_ec         INTEGER NOT NULL,
    unvalidated         INTEGER NOT NULL,
    tangles             INTEGER NOT NULL,
    partitions          INTEGER NOT NULL,
    first_partitions    INTEGER NOT NULL
);

-- Time and memory of each analysis stage.
CREATE TABLE run_stages (
    run_id          INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    ordinal         INTEGER NOT NULL,
    name            TEXT NOT NULL,
    seconds         REAL NOT NULL,
    peak_rss_bytes  INTEGER NOT NULL,
    PRIMARY KEY (run_id, ordinal)
) WITHOUT ROWID;

-- Logical threads of control (pthreads, tasks).
CREATE TABLE processes (
    run_id  INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    id      INTEGER NOT NULL,        -- Trace::processes index
    name    TEXT NOT NULL,           -- 'T1', 'thread 3', ...
    parent  INTEGER,                 -- creating process id, when known
    event_count INTEGER NOT NULL,
    -- (version 3) index of the fork event in `parent` that created this process (its creation
    -- stack is that event's location and context); NULL when unknown
    creation_event INTEGER,
    PRIMARY KEY (run_id, id)
) WITHOUT ROWID;

-- Program locations: of accesses, of synchronization calls, of calling-context frames.
CREATE TABLE locations (
    run_id    INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    id        INTEGER NOT NULL,      -- Trace::locations index
    file      TEXT NOT NULL,         -- '' when unknown; same string as source_files.path
    line      INTEGER NOT NULL,      -- 0 when unknown
    "column"  INTEGER NOT NULL,      -- 0 when unknown
    function  TEXT NOT NULL,         -- '' when unknown
    pc        INTEGER NOT NULL,      -- 0 for STD traces
    -- (version 2) an inlined call: the location of the call in the function it was inlined
    -- into (same pc); NULL for an outermost frame
    inlined_into INTEGER,
    PRIMARY KEY (run_id, id)
) WITHOUT ROWID;

-- Calling-context tree: a frame is a location plus its caller's frame.
CREATE TABLE contexts (
    run_id    INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    id        INTEGER NOT NULL,      -- Trace::contexts index
    parent    INTEGER,               -- caller frame (contexts.id), NULL at the root
    location  INTEGER,               -- locations.id
    PRIMARY KEY (run_id, id)
) WITHOUT ROWID;

-- Synchronization objects.
CREATE TABLE sync_objects (
    run_id         INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    id             INTEGER NOT NULL,  -- Trace::objects index (events.object)
    kind           TEXT NOT NULL,     -- lock, rwlock, spinlock, semaphore, barrier, condition, atomic, other
    name           TEXT NOT NULL,
    address        INTEGER NOT NULL,
    initial_value  INTEGER NOT NULL,
    -- (version 3) the name reports show: kind and the variable or heap block holding the
    -- object ('mutex pool_lock'), else `name`
    label          TEXT,
    PRIMARY KEY (run_id, id)
) WITHOUT ROWID;

-- Named "addresses" of traces that have variables rather than bytes (STD): address id = name.
CREATE TABLE variables (
    run_id  INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    id      INTEGER NOT NULL,
    name    TEXT NOT NULL,
    PRIMARY KEY (run_id, id)
) WITHOUT ROWID;

-- Events of every process in process order.
CREATE TABLE events (
    run_id        INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    process       INTEGER NOT NULL,  -- processes.id
    idx           INTEGER NOT NULL,  -- position among the process' events, from 0
    kind          TEXT NOT NULL,     -- computation, fork, join, acquire, release, sem-post, sem-wait,
                                     -- barrier-arrive, barrier-depart, cond-signal, cond-wait, other
    object        INTEGER,           -- sync_objects.id (processes.id for fork/join); NULL if none
    counter       INTEGER NOT NULL,  -- position in the object's order of operations
    clock_start   INTEGER,           -- complete ordering clock readings; NULL without clocks
    clock_finish  INTEGER,
    context       INTEGER,           -- contexts.id (calling context), NULL if unknown
    location      INTEGER,           -- sync events: locations.id of the call, NULL if unknown
    site_count    INTEGER NOT NULL,  -- computation events: number of access sites
    PRIMARY KEY (run_id, process, idx)
) WITHOUT ROWID;

-- Access sites: what one program location did inside one computation event.
CREATE TABLE access_sites (
    run_id     INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    id         INTEGER NOT NULL,     -- Trace::sites index
    process    INTEGER,              -- the event holding the site: (process, event_index)
    event_index INTEGER,
    location   INTEGER,              -- locations.id, NULL if unknown
    kind       TEXT NOT NULL,        -- read, write, read-write, atomic-read, atomic-write, atomic-read-write
    flags      INTEGER NOT NULL,     -- bit 1 read, 2 write, 4 atomic
    context    INTEGER,              -- (version 2) contexts.id of the innermost caller frame
    PRIMARY KEY (run_id, id)
) WITHOUT ROWID;
CREATE INDEX access_sites_by_event ON access_sites (run_id, process, event_index);

-- The sorted disjoint half-open ranges [lo, hi) an access site touched (bytes, or variable ids).
CREATE TABLE site_ranges (
    run_id  INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    site    INTEGER NOT NULL,        -- access_sites.id
    lo      INTEGER NOT NULL,
    hi      INTEGER NOT NULL,
    PRIMARY KEY (run_id, site, lo)
) WITHOUT ROWID;

-- Graph edges besides process order: synchronization edges of G (ordering), shared-data
-- dependences of G_D and event-control dependences of G_E (a_s -> b_f).
CREATE TABLE graph_edges (
    run_id        INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    kind          TEXT NOT NULL CHECK (kind IN ('ordering', 'shared-data', 'event-control')),
    from_process  INTEGER NOT NULL,
    from_index    INTEGER NOT NULL,
    to_process    INTEGER NOT NULL,
    to_index      INTEGER NOT NULL,
    transitive    INTEGER NOT NULL DEFAULT 0 CHECK (transitive IN (0, 1))
);
CREATE INDEX graph_edges_by_run ON graph_edges (run_id, kind);
-- The edges at the events a browser shows (the history around one race).
CREATE INDEX graph_edges_by_source ON graph_edges (run_id, from_process, from_index);
CREATE INDEX graph_edges_by_target ON graph_edges (run_id, to_process, to_index);

-- Partitions of the race ordering (R̂* classes); first = no other partition before it.
CREATE TABLE partitions (
    run_id      INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    id          INTEGER NOT NULL,    -- analysis partition id; first partitions have the lowest ids
    first       INTEGER NOT NULL CHECK (first IN (0, 1)),
    race_count  INTEGER NOT NULL,
    PRIMARY KEY (run_id, id)
) WITHOUT ROWID;

-- The partition DAG: `after_id` comes directly after `partition_id` (R̂ successor).
CREATE TABLE partition_edges (
    run_id        INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    partition_id  INTEGER NOT NULL,
    ordinal       INTEGER NOT NULL,  -- position in Partition::after
    after_id      INTEGER NOT NULL,
    -- WITHOUT ROWID tables declare their key columns first, in key order: SQLite 3.40's
    -- integrity check misreads NOT NULL columns placed between key columns.
    PRIMARY KEY (run_id, partition_id, ordinal)
) WITHOUT ROWID;

-- Tangles: strongly connected components of G_D holding races.
CREATE TABLE tangles (
    run_id          INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    id              INTEGER NOT NULL,
    race_count      INTEGER NOT NULL,
    feasible_count  INTEGER NOT NULL,  -- races of the tangle with status feasible / feasible-ec
    PRIMARY KEY (run_id, id)
) WITHOUT ROWID;

-- Apparent races: an unordered pair of computation events with a data conflict.
CREATE TABLE races (
    run_id     INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    id         INTEGER NOT NULL,       -- analysis race id
    a_process  INTEGER NOT NULL,       -- event a: (a_process, a_index); a_process < b_process
    a_index    INTEGER NOT NULL,
    b_process  INTEGER NOT NULL,
    b_index    INTEGER NOT NULL,
    status     TEXT NOT NULL CHECK (status IN ('feasible', 'feasible-ec', 'unvalidated')),
    tangle     INTEGER,                -- tangles.id, NULL when not tangled
    actual     INTEGER,                -- 1/0 complete ordering (events overlapped), NULL otherwise
    partition  INTEGER NOT NULL,       -- partitions.id
    PRIMARY KEY (run_id, id)
) WITHOUT ROWID;
CREATE INDEX races_by_partition ON races (run_id, partition);
-- The races of an event window (the history around one race), by their event a.
CREATE INDEX races_by_event ON races (run_id, a_process, a_index);

-- The conflicting addresses of a race, as displayed: one row per variable (STD traces) or
-- per merged byte range.
CREATE TABLE race_variables (
    run_id   INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    race_id  INTEGER NOT NULL,
    ordinal  INTEGER NOT NULL,
    name     TEXT NOT NULL,          -- 'V3' or '0x7ffd1000+8'
    lo       INTEGER NOT NULL,       -- [lo, hi): variable id or byte range
    hi       INTEGER NOT NULL,
    PRIMARY KEY (run_id, race_id, ordinal)
) WITHOUT ROWID;

-- The access sites of each side of a race that touch the conflicting addresses.
CREATE TABLE race_accesses (
    run_id   INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    race_id  INTEGER NOT NULL,
    side     TEXT NOT NULL CHECK (side IN ('a', 'b')),
    ordinal  INTEGER NOT NULL,
    site     INTEGER NOT NULL,       -- access_sites.id
    PRIMARY KEY (run_id, race_id, side, ordinal)
) WITHOUT ROWID;

-- Source-location pairs of a run: the race sites. `site_key` is stable across runs (built from
-- the (file, line) pair only), so race sites are matched across runs and databases by it:
--   '<file_1>:<line_1> <-> <file_2>:<line_2>' with (file_1, line_1) <= (file_2, line_2),
--   an unknown location written as '<unknown>'.
CREATE TABLE site_pairs (
    run_id      INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    id          INTEGER NOT NULL,
    site_key    TEXT NOT NULL,
    file_1      TEXT NOT NULL,
    line_1      INTEGER NOT NULL,
    function_1  TEXT NOT NULL,
    file_2      TEXT NOT NULL,
    line_2      INTEGER NOT NULL,
    function_2  TEXT NOT NULL,
    PRIMARY KEY (run_id, id)
) WITHOUT ROWID;
-- (run_id, site_key) is unique; the writer ensures it. No index on the key: matching runs
-- (EXCEPT, --baseline) reads every key anyway, and an index of 10^6 keys costs seconds to write.

-- Which races are instances of which site pair (a race with several sites on a side is an
-- instance of several pairs).
CREATE TABLE race_site_pairs (
    run_id   INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    pair_id  INTEGER NOT NULL,       -- site_pairs.id
    race_id  INTEGER NOT NULL,       -- races.id
    PRIMARY KEY (run_id, pair_id, race_id)
) WITHOUT ROWID;

-- (version 2) The race site instances of each race: an access site of side a and one of side
-- b sharing a byte, at least one writing, not both atomic (DESIGN "Outputs").
CREATE TABLE race_site_instances (
    run_id   INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    race_id  INTEGER NOT NULL,
    ordinal  INTEGER NOT NULL,
    a_ordinal INTEGER NOT NULL,      -- race_accesses.ordinal of side 'a'
    b_ordinal INTEGER NOT NULL,      -- race_accesses.ordinal of side 'b'
    pair_id  INTEGER NOT NULL,       -- site_pairs.id (headline locations of the two sites)
    variable TEXT NOT NULL,          -- what the two sites share: 'X', 'ring.tail', 'heap block ...'
    PRIMARY KEY (run_id, race_id, ordinal)
) WITHOUT ROWID;

-- (version 2) Heap blocks as the allocator handed them out (byte-addressed traces).
CREATE TABLE heap_blocks (
    run_id       INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    id           INTEGER NOT NULL,   -- Trace::heap_blocks index
    lo           INTEGER NOT NULL,   -- [lo, hi): the block
    hi           INTEGER NOT NULL,
    process      INTEGER,            -- allocating process
    event_index  INTEGER,            -- index of the event that followed the allocation
    location     INTEGER,            -- locations.id of the allocation call
    context      INTEGER,            -- contexts.id of its caller
    PRIMARY KEY (run_id, id)
) WITHOUT ROWID;

-- (version 3) The locks held during the events of races: one row per lock and event, in
-- acquisition order (analyzer/src/report_held_locks.hpp).
CREATE TABLE held_locks (
    run_id         INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    process        INTEGER NOT NULL,  -- the event: (process, event_index)
    event_index    INTEGER NOT NULL,
    ordinal        INTEGER NOT NULL,
    object         INTEGER NOT NULL,  -- sync_objects.id of the lock
    acquire_index  INTEGER NOT NULL,  -- events.idx (same process) of the acquire that holds it
    PRIMARY KEY (run_id, process, event_index, ordinal)
) WITHOUT ROWID;

-- (version 3) Races of later partitions: one race of an earlier partition each is ordered after
-- (analyzer/src/report_ordering_chains.hpp). No row: a first partition's race, or none found
-- within the search budget.
CREATE TABLE race_orderings (
    run_id         INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    race_id        INTEGER NOT NULL,  -- the later race
    after_race_id  INTEGER NOT NULL,  -- the earlier race
    PRIMARY KEY (run_id, race_id)
) WITHOUT ROWID;

-- (version 3) The chain of events: a path from each event of after_race_id (a, then b) to one
-- event of race_id, each beginning with a 'start' step; runs of process order are shortened.
CREATE TABLE race_ordering_steps (
    run_id       INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    race_id      INTEGER NOT NULL,
    ordinal      INTEGER NOT NULL,
    process      INTEGER NOT NULL,  -- the event: (process, event_index)
    event_index  INTEGER NOT NULL,
    via          TEXT NOT NULL CHECK (via IN ('start', 'program-order', 'synchronization',
                                             'event-control')),
    kind         TEXT NOT NULL,     -- events.kind
    object       TEXT NOT NULL,     -- what it synchronizes on, as shown ('' for none)
    location     INTEGER,           -- where it is shown: locations.id and contexts.id (a
    context      INTEGER,           -- computation event: its first access site)
    PRIMARY KEY (run_id, race_id, ordinal)
) WITHOUT ROWID;

-- Source texts, deduplicated across runs by content.
CREATE TABLE source_texts (
    id    INTEGER PRIMARY KEY,
    hash  INTEGER NOT NULL,          -- 64-bit FNV-1a of the text, for deduplication
    size  INTEGER NOT NULL,          -- bytes
    text  TEXT NOT NULL
);
CREATE INDEX source_texts_by_hash ON source_texts (hash);

-- The source files a run's locations name, with their text as read at analysis time.
CREATE TABLE source_files (
    run_id         INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    path           TEXT NOT NULL,     -- exactly locations.file
    resolved_path  TEXT,              -- the file that was read (absolute), NULL if none
    text_id        INTEGER REFERENCES source_texts(id),  -- NULL when the file was not readable
    PRIMARY KEY (run_id, path)
) WITHOUT ROWID;

-- Races of first partitions: the ones to look at first.
CREATE VIEW first_races AS
SELECT r.*
FROM races AS r
JOIN partitions AS p ON p.run_id = r.run_id AND p.id = r.partition
WHERE p.first = 1;

-- Race sites of each run: one row per site pair with its instances summarized. Grouped in the
-- order of race_site_pairs' key, so rows stream without a sort.
CREATE VIEW race_sites AS
SELECT rs.run_id                                               AS run_id,
       rs.pair_id                                              AS pair_id,
       sp.site_key                                             AS site_key,
       sp.file_1 AS file_1, sp.line_1 AS line_1, sp.function_1 AS function_1,
       sp.file_2 AS file_2, sp.line_2 AS line_2, sp.function_2 AS function_2,
       count(*)                                                AS races,
       sum(r.status = 'feasible')                              AS feasible,
       sum(r.status = 'feasible-ec')                           AS feasible_ec,
       sum(r.status = 'unvalidated')                           AS unvalidated,
       sum(coalesce(r.actual, 0))                              AS actual,
       max(p.first)                                            AS in_first_partition,
       min(r.id)                                               AS first_race_id,
       min(r.partition)                                        AS first_partition_id
FROM race_site_pairs AS rs
JOIN site_pairs AS sp ON sp.run_id = rs.run_id AND sp.id = rs.pair_id
JOIN races AS r ON r.run_id = rs.run_id AND r.id = rs.race_id
JOIN partitions AS p ON p.run_id = r.run_id AND p.id = r.partition
GROUP BY rs.run_id, rs.pair_id;
