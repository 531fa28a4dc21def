// Reading runs back from the results database (read-only; `firstrace report`).
#include <sqlite3.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <map>

#include "firstrace/results_database.hpp"
#include "report_sites.hpp"
#include "results_database_schema.hpp"
#include "results_database_sqlite.hpp"

namespace firstrace {
namespace {

RaceStatus parse_status(const std::string& s, const std::string& path) {
    if (s == "feasible") return RaceStatus::Feasible;
    if (s == "feasible-ec") return RaceStatus::FeasibleEc;
    if (s == "unvalidated") return RaceStatus::Unvalidated;
    throw InputError(path, 0, "invalid race status '" + s + "'");
}

Ordering parse_ordering(const std::string& s, const std::string& path) {
    if (s == "approximate") return Ordering::Approximate;
    if (s == "complete") return Ordering::Complete;
    throw InputError(path, 0, "invalid ordering '" + s + "'");
}

const char* kRunColumns = "SELECT id, program, host, started_at, analyzed_at, trace_path, "
                          "tool_version, ordering, truncated,"
                          " events, computation_events, accesses, processes, apparent, actual, "
                          "feasible, feasible_ec, unvalidated,"
                          " tangles, partitions, first_partitions FROM runs";

RunSummary read_run_row(const db::Statement& s, const std::string& path) {
    RunSummary r;
    r.id = s.int64(0);
    r.program = s.optional_text(1);
    r.host = s.optional_text(2);
    r.started_at = s.optional_text(3);
    r.analyzed_at = s.text(4);
    r.trace_path = s.text(5);
    r.tool_version = s.text(6);
    r.ordering = parse_ordering(s.text(7), path);
    r.truncated = s.int64(8) != 0;
    AnalysisCounts& c = r.counts;
    c.events = static_cast<std::uint64_t>(s.int64(9));
    c.computation_events = static_cast<std::uint64_t>(s.int64(10));
    c.accesses = static_cast<std::uint64_t>(s.int64(11));
    c.processes = s.uint32(12);
    c.apparent = static_cast<std::uint64_t>(s.int64(13));
    c.actual = static_cast<std::uint64_t>(s.optional_int64(14).value_or(0));
    c.feasible = static_cast<std::uint64_t>(s.int64(15));
    c.feasible_ec = static_cast<std::uint64_t>(s.int64(16));
    c.unvalidated = static_cast<std::uint64_t>(s.int64(17));
    c.tangles = static_cast<std::uint64_t>(s.int64(18));
    c.partitions = static_cast<std::uint64_t>(s.int64(19));
    c.first_partitions = static_cast<std::uint64_t>(s.int64(20));
    return r;
}

} // namespace

ResultsDatabase::ResultsDatabase(const std::string& path) {
    // SQLite would report a missing file only as "unable to open"; say it plainly.
    if (FILE* f = std::fopen(path.c_str(), "rb"))
        std::fclose(f);
    else
        throw InputError(path, 0, "cannot open the database (no such file or not readable)");
    // A writer that was killed mid-transaction leaves a hot journal; a read-only connection
    // cannot roll it back (SQLITE_READONLY_ROLLBACK). Restore the last committed state first, as
    // any writer would on its next open: that drops the half-written run.
    {
        std::error_code ec;
        if (std::filesystem::file_size(path + "-journal", ec) > 0 && !ec) {
            db::Connection recover(path, db::Connection::Mode::ReadWrite);
            recover.query_int("SELECT count(*) FROM sqlite_master");
        }
    }
    connection_ = std::make_unique<db::Connection>(path, db::Connection::Mode::ReadOnly);
    // Every query's work is bounded by the file's size (not by what its header claims): a
    // damaged or hostile database fails in bounded time (issue 13).
    std::error_code size_error;
    const std::uintmax_t bytes = std::filesystem::file_size(path, size_error);
    const std::int64_t work_limit = db::Connection::work_limit_for(size_error ? 0 : bytes);
    connection_->limit_work(work_limit);
    const int version = db::check_database(*connection_);
    if (version == 0) throw InputError(path, 0, "not a firstrace results database (an empty file)");
    if (version < db::kSchemaVersion) {
        // Bring an older database forward in memory: the file stays as it is.
        auto memory = std::make_unique<db::Connection>(
            ":memory:", db::Connection::Mode::ReadWriteCreate, path);
        sqlite3_backup* backup =
            sqlite3_backup_init(memory->get(), "main", connection_->get(), "main");
        if (!backup) connection_->fail("cannot read the database", sqlite3_errcode(memory->get()));
        const int rc = sqlite3_backup_step(backup, -1);
        sqlite3_backup_finish(backup);
        if (rc != SQLITE_DONE) connection_->fail("cannot read the database", rc);
        memory->limit_work(work_limit);
        db::migrate(*memory, version);
        connection_ = std::move(memory);
    }
    db_path_ = path;
}

ResultsDatabase::~ResultsDatabase() = default;
ResultsDatabase::ResultsDatabase(ResultsDatabase&&) noexcept = default;
ResultsDatabase& ResultsDatabase::operator=(ResultsDatabase&&) noexcept = default;

const std::string& ResultsDatabase::path() const {
    return db_path_;
}

std::vector<RunSummary> ResultsDatabase::runs() const {
    db::Statement s = connection_->prepare((std::string(kRunColumns) + " ORDER BY id").c_str());
    std::vector<RunSummary> out;
    while (s.step())
        out.push_back(read_run_row(s, db_path_));
    return out;
}

std::int64_t ResultsDatabase::latest_run() const {
    db::Statement s = connection_->prepare("SELECT max(id) FROM runs");
    if (!s.step() || s.is_null(0)) throw InputError(db_path_, 0, "the database holds no run");
    return s.int64(0);
}

RunSummary ResultsDatabase::run(std::int64_t id) const {
    db::Statement s = connection_->prepare((std::string(kRunColumns) + " WHERE id = ?").c_str());
    s.bind(1, id);
    if (!s.step())
        throw InputError(db_path_, 0, "no run " + std::to_string(id) + " in the database");
    return read_run_row(s, db_path_);
}

ReportModel ResultsDatabase::read_report(std::int64_t run_id) const {
    const RunSummary summary = run(run_id);
    db::Connection& c = *connection_;
    ReportModel model;
    model.trace_path = summary.trace_path;
    model.ordering = summary.ordering;
    model.truncated = summary.truncated;
    model.counts = summary.counts;

    std::vector<std::string> process_names;
    std::vector<std::uint32_t> process_parents;
    {
        db::Statement s =
            c.prepare("SELECT id, name, parent FROM processes WHERE run_id = ? ORDER BY id");
        s.bind(1, run_id);
        while (s.step()) {
            if (s.int64(0) != static_cast<std::int64_t>(process_names.size()))
                throw InputError(db_path_, 0,
                                 "run " + std::to_string(run_id) + ": process ids are not dense");
            process_names.push_back(s.text(1));
            process_parents.push_back(s.is_null(2) ? kNone : s.uint32(2));
        }
    }
    auto process_name = [&](std::int64_t p) -> const std::string& {
        if (p < 0 || static_cast<std::size_t>(p) >= process_names.size())
            throw InputError(db_path_, 0,
                             "run " + std::to_string(run_id) + ": race names unknown process " +
                                 std::to_string(p));
        return process_names[static_cast<std::size_t>(p)];
    };
    // Locations, calling contexts and access sites as a trace, so that stacks and headlines
    // come from the same functions as in make_report_model.
    Trace stacks = read_stacks(run_id);
    std::vector<std::pair<EventRef, EventRef>> race_events; // per race: (a, b)
    {
        db::Statement s = c.prepare(
            "SELECT id, a_process, a_index, b_process, b_index, status, tangle, actual, partition"
            " FROM races WHERE run_id = ? ORDER BY id");
        s.bind(1, run_id);
        while (s.step()) {
            ReportRace r;
            r.id = s.uint32(0);
            if (r.id != model.races.size())
                throw InputError(db_path_, 0,
                                 "run " + std::to_string(run_id) + ": race ids are not dense");
            r.a.thread = process_name(s.int64(1));
            r.a.index = s.uint32(2);
            r.b.thread = process_name(s.int64(3));
            r.b.index = s.uint32(4);
            race_events.push_back({{s.uint32(1), s.uint32(2)}, {s.uint32(3), s.uint32(4)}});
            r.status = parse_status(s.text(5), db_path_);
            if (!s.is_null(6)) r.tangle = s.uint32(6);
            if (!s.is_null(7)) r.actual = s.int64(7) != 0;
            r.partition = s.uint32(8);
            model.races.push_back(std::move(r));
        }
    }
    auto race_at = [&](std::int64_t id) -> ReportRace& {
        if (id < 0 || static_cast<std::size_t>(id) >= model.races.size())
            throw InputError(db_path_, 0,
                             "run " + std::to_string(run_id) + ": reference to unknown race " +
                                 std::to_string(id));
        return model.races[static_cast<std::size_t>(id)];
    };
    {
        db::Statement s = c.prepare(
            "SELECT race_id, name FROM race_variables WHERE run_id = ? ORDER BY race_id, ordinal");
        s.bind(1, run_id);
        while (s.step())
            race_at(s.int64(0)).variables.push_back(s.text(1));
    }
    {
        // The run's access sites in one sequential scan, then the race accesses in race
        // order: no per-access lookup. Each site's ReportSite is made once.
        {
            db::Statement s = c.prepare("SELECT id, location, flags, context FROM access_sites "
                                        "WHERE run_id = ? ORDER BY id");
            s.bind(1, run_id);
            while (s.step()) {
                // Dense ids as written (a hostile id of 2^40 must not size a vector).
                if (s.int64(0) != static_cast<std::int64_t>(stacks.sites.size()))
                    throw InputError(db_path_, 0,
                                     "run " + std::to_string(run_id) +
                                         ": access site ids are not dense");
                AccessSite site;
                site.location = s.is_null(1) ? kNone : s.uint32(1);
                site.flags = static_cast<std::uint8_t>(s.int64(2));
                site.context = s.is_null(3) ? kNone : s.uint32(3);
                stacks.sites.push_back(site);
            }
        }
        std::vector<std::optional<ReportSite>> made(stacks.sites.size());
        db::Statement s = c.prepare("SELECT race_id, side, site FROM race_accesses WHERE run_id = "
                                    "? ORDER BY race_id, side, ordinal");
        s.bind(1, run_id);
        while (s.step()) {
            ReportRace& r = race_at(s.int64(0));
            const auto site_id = static_cast<std::size_t>(s.int64(2));
            if (site_id >= stacks.sites.size())
                throw InputError(db_path_, 0,
                                 "run " + std::to_string(run_id) + ": race " +
                                     std::to_string(r.id) + " names unknown access site " +
                                     std::to_string(site_id));
            if (!made[site_id])
                made[site_id] = make_report_site(stacks, static_cast<std::uint32_t>(site_id));
            (s.text(1) == "a" ? r.sites_a : r.sites_b).push_back(*made[site_id]);
        }
        db::Statement i =
            c.prepare("SELECT race_id, a_ordinal, b_ordinal, variable FROM "
                      "race_site_instances WHERE run_id = ? ORDER BY race_id, ordinal");
        i.bind(1, run_id);
        while (i.step())
            race_at(i.int64(0)).pairs.push_back({i.uint32(1), i.uint32(2), i.text(3)});
    }
    read_event_facts(run_id, stacks, process_names, process_parents, race_events, model);
    read_orderings(run_id, stacks, process_names, model);
    {
        db::Statement s =
            c.prepare("SELECT id, first FROM partitions WHERE run_id = ? ORDER BY id");
        s.bind(1, run_id);
        while (s.step()) {
            ReportPartition p;
            p.id = s.uint32(0);
            if (p.id != model.partitions.size())
                throw InputError(db_path_, 0,
                                 "run " + std::to_string(run_id) + ": partition ids are not dense");
            p.first = s.int64(1) != 0;
            model.partitions.push_back(std::move(p));
        }
        for (const ReportRace& r : model.races) {
            if (r.partition >= model.partitions.size())
                throw InputError(db_path_, 0,
                                 "run " + std::to_string(run_id) + ": race " +
                                     std::to_string(r.id) + " names unknown partition " +
                                     std::to_string(r.partition));
            model.partitions[r.partition].races.push_back(r.id);
        }
        db::Statement e =
            c.prepare("SELECT partition_id, after_id FROM partition_edges WHERE run_id = ?"
                      " ORDER BY partition_id, ordinal");
        e.bind(1, run_id);
        while (e.step()) {
            const auto p = static_cast<std::size_t>(e.int64(0));
            if (p >= model.partitions.size())
                throw InputError(db_path_, 0,
                                 "run " + std::to_string(run_id) +
                                     ": partition edge from unknown partition");
            model.partitions[p].after.push_back(e.uint32(1));
        }
    }
    return model;
}

// The run's locations and calling contexts as a trace: what make_report_stack needs.
Trace ResultsDatabase::read_stacks(std::int64_t run_id) const {
    db::Connection& c = *connection_;
    Trace stacks;
    {
        db::Statement s = c.prepare("SELECT id, file, line, \"column\", function, inlined_into "
                                    "FROM locations WHERE run_id = ? ORDER BY id");
        s.bind(1, run_id);
        while (s.step()) {
            // Dense ids as written (a hostile id of 2^40 must not size a vector).
            if (s.int64(0) != static_cast<std::int64_t>(stacks.locations.size()))
                throw InputError(db_path_, 0,
                                 "run " + std::to_string(run_id) + ": location ids are not dense");
            SourceLocation& l = stacks.locations.emplace_back();
            l.file = s.text(1);
            l.line = s.uint32(2);
            l.column = s.uint32(3);
            l.function = s.text(4);
            l.inlined_into = s.is_null(5) ? kNone : s.uint32(5);
        }
    }
    {
        db::Statement s =
            c.prepare("SELECT id, parent, location FROM contexts WHERE run_id = ? ORDER BY id");
        s.bind(1, run_id);
        while (s.step()) {
            if (s.int64(0) != static_cast<std::int64_t>(stacks.contexts.size()))
                throw InputError(db_path_, 0,
                                 "run " + std::to_string(run_id) + ": context ids are not dense");
            stacks.contexts.push_back(
                {s.is_null(1) ? kNone : s.uint32(1), s.is_null(2) ? kNone : s.uint32(2)});
        }
    }
    return stacks;
}

std::vector<std::string> ResultsDatabase::process_names(std::int64_t run_id) const {
    std::vector<std::string> names;
    db::Statement s =
        connection_->prepare("SELECT name FROM processes WHERE run_id = ? ORDER BY id");
    s.bind(1, run_id);
    while (s.step())
        names.push_back(s.text(0));
    return names;
}

ReportEvent ResultsDatabase::event_facts(std::int64_t run_id, std::uint32_t process,
                                         std::uint32_t event) const {
    const RunSummary summary = run(run_id); // throws for an unknown run
    db::Connection& c = *connection_;
    std::vector<std::string> names;
    std::vector<std::uint32_t> parents;
    {
        db::Statement s =
            c.prepare("SELECT id, name, parent FROM processes WHERE run_id = ? ORDER BY id");
        s.bind(1, run_id);
        while (s.step()) {
            names.push_back(s.text(1));
            parents.push_back(s.is_null(2) ? kNone : s.uint32(2));
        }
    }
    if (process >= names.size())
        throw InputError(db_path_, 0,
                         "run " + std::to_string(run_id) + " has no process " +
                             std::to_string(process));
    const Trace stacks = read_stacks(run_id);
    ReportModel model;
    model.races.resize(1);
    model.races[0].a.thread = names[process];
    model.races[0].a.index = event;
    const EventRef ref{process, event};
    read_event_facts(run_id, stacks, names, parents, {{ref, ref}}, model);
    return model.races[0].a;
}

std::optional<ReportOrderedAfter> ResultsDatabase::ordered_after(std::int64_t run_id,
                                                                 std::uint32_t race) const {
    const RunSummary summary = run(run_id); // throws for an unknown run
    ReportModel model;
    model.races.resize(1); // `only`: the race is model.races[0] (no 10^6 empty races per call)
    read_orderings(run_id, read_stacks(run_id), process_names(run_id), model, race);
    return model.races[0].ordered_after;
}

// The locks held during each race event and the creation of its thread, as ReportEventFacts
// shows them.
void ResultsDatabase::read_event_facts(
    std::int64_t run_id, const Trace& stacks, const std::vector<std::string>& process_names,
    const std::vector<std::uint32_t>& process_parents,
    const std::vector<std::pair<EventRef, EventRef>>& race_events, ReportModel& model) const {
    db::Connection& c = *connection_;
    std::map<EventRef, std::vector<ReportHeldLock>> locks;
    {
        db::Statement s = c.prepare(
            "SELECT h.process, h.event_index, coalesce(o.label, o.name), e.location, e.context"
            " FROM held_locks AS h"
            " JOIN sync_objects AS o ON o.run_id = h.run_id AND o.id = h.object"
            " JOIN events AS e ON e.run_id = h.run_id AND e.process = h.process"
            "  AND e.idx = h.acquire_index"
            " WHERE h.run_id = ? ORDER BY h.process, h.event_index, h.ordinal");
        s.bind(1, run_id);
        while (s.step())
            locks[EventRef{s.uint32(0), s.uint32(1)}].push_back(
                {s.text(2), make_report_stack(stacks, s.is_null(3) ? kNone : s.uint32(3),
                                              s.is_null(4) ? kNone : s.uint32(4))});
    }
    std::vector<ReportStack> created(process_names.size());
    {
        db::Statement s = c.prepare("SELECT p.id, e.location, e.context FROM processes AS p"
                                    " JOIN events AS e ON e.run_id = p.run_id"
                                    "  AND e.process = p.parent AND e.idx = p.creation_event"
                                    " WHERE p.run_id = ?");
        s.bind(1, run_id);
        while (s.step()) {
            const auto p = static_cast<std::size_t>(s.int64(0));
            if (p < created.size())
                created[p] = make_report_stack(stacks, s.is_null(1) ? kNone : s.uint32(1),
                                               s.is_null(2) ? kNone : s.uint32(2));
        }
    }
    auto fill = [&](const EventRef& ref, ReportEvent& e) {
        if (auto it = locks.find(ref); it != locks.end()) e.locks = it->second;
        const std::uint32_t parent = process_parents[ref.process];
        if (parent < process_names.size()) {
            e.parent = process_names[parent];
            e.created = created[ref.process];
        }
    };
    for (std::size_t i = 0; i < race_events.size(); ++i) {
        fill(race_events[i].first, model.races[i].a);
        fill(race_events[i].second, model.races[i].b);
    }
}

void ResultsDatabase::read_orderings(std::int64_t run_id, const Trace& stacks,
                                     const std::vector<std::string>& process_names,
                                     ReportModel& model, std::optional<std::uint32_t> only) const {
    db::Connection& c = *connection_;
    auto race_at = [&](std::int64_t id) -> ReportRace& {
        if (only && id == std::int64_t{*only}) return model.races[0];
        if (only || id < 0 || static_cast<std::size_t>(id) >= model.races.size())
            throw InputError(db_path_, 0,
                             "run " + std::to_string(run_id) + ": ordering of unknown race " +
                                 std::to_string(id));
        return model.races[static_cast<std::size_t>(id)];
    };
    // A range rather than "?2 IS NULL OR race_id = ?2", which SQLite answers by a scan of
    // every ordering of the run (seconds for 10^6 races, per click in the GUI).
    const std::int64_t lo = only ? std::int64_t{*only} : 0;
    const std::int64_t hi = only ? std::int64_t{*only} : std::numeric_limits<std::int64_t>::max();
    db::Statement s = c.prepare("SELECT race_id, after_race_id FROM race_orderings WHERE run_id = ?"
                                " AND race_id BETWEEN ?2 AND ?3");
    s.bind(1, run_id).bind(2, lo).bind(3, hi);
    while (s.step())
        race_at(s.int64(0)).ordered_after = ReportOrderedAfter{s.uint32(1), {}};
    db::Statement t = c.prepare("SELECT race_id, process, event_index, via, kind, object, location,"
                                " context FROM race_ordering_steps WHERE run_id = ?"
                                " AND race_id BETWEEN ?2 AND ?3 ORDER BY race_id, ordinal");
    t.bind(1, run_id).bind(2, lo).bind(3, hi);
    while (t.step()) {
        ReportRace& r = race_at(t.int64(0));
        const auto p = static_cast<std::size_t>(t.int64(1));
        if (!r.ordered_after || p >= process_names.size())
            throw InputError(db_path_, 0,
                             "run " + std::to_string(run_id) + ": ordering step of race " +
                                 std::to_string(r.id) + " without its ordering");
        r.ordered_after->chain.push_back(
            {process_names[p], t.uint32(2), t.text(3), t.text(4), t.text(5),
             make_report_stack(stacks, t.is_null(6) ? kNone : t.uint32(6),
                               t.is_null(7) ? kNone : t.uint32(7))});
    }
}

std::vector<std::string> ResultsDatabase::site_keys(std::optional<std::int64_t> run) const {
    db::Statement s = connection_->prepare(
        run ? "SELECT site_key FROM site_pairs WHERE run_id = ? ORDER BY site_key"
            : "SELECT DISTINCT site_key FROM site_pairs ORDER BY site_key");
    if (run) s.bind(1, *run);
    std::vector<std::string> out;
    while (s.step())
        out.push_back(s.text(0));
    return out;
}

std::optional<std::string> ResultsDatabase::source_text(std::int64_t run,
                                                        const std::string& file) const {
    db::Statement s = connection_->prepare(
        "SELECT t.text FROM source_files AS f JOIN source_texts AS t ON t.id = f.text_id"
        " WHERE f.run_id = ? AND f.path = ?");
    s.bind(1, run).bind(2, file);
    if (!s.step()) return std::nullopt;
    return s.text(0);
}

} // namespace firstrace
