// `firstrace analyze -o DB`: one run into the results database, in one transaction.
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <unistd.h>
#include <unordered_map>

#include "firstrace/results_database.hpp"
#include "firstrace/triage_report.hpp"
#include "input_file.hpp"
#include "json_writer.hpp"
#include "report_call_stacks.hpp"
#include "report_held_locks.hpp"
#include "report_ordering_chains.hpp"
#include "report_sites.hpp"
#include "results_database_schema.hpp"
#include "results_database_sqlite.hpp"

namespace firstrace {
namespace {

namespace fs = std::filesystem;

std::string now_iso8601() {
    const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

// The same words make_report_model uses for ReportSite::kind.
std::string site_kind(std::uint8_t flags) {
    std::string kind = (flags & kAccessRead) && (flags & kAccessWrite) ? "read-write"
                       : (flags & kAccessWrite)                        ? "write"
                                                                       : "read";
    return (flags & kAccessAtomic) ? "atomic-" + kind : kind;
}

std::uint64_t fnv1a(const std::string& text) {
    std::uint64_t h = 14695981039346656037ull;
    for (unsigned char c : text) {
        h ^= c;
        h *= 1099511628211ull;
    }
    return h;
}

std::optional<std::int64_t> id_or_null(std::uint32_t id) {
    if (id == kNone) return std::nullopt;
    return id;
}

// A site's bytes as the database stores them: program addresses, ascending, disjoint. The
// keys of several lifetimes of reused memory (memory_lifetimes.hpp) can name the same bytes:
// an event that lasted across a reuse has them in the lifetime before it and after it.
std::vector<Interval> program_ranges(const Trace& trace, const AccessSite& site) {
    std::vector<Interval> bytes;
    bytes.reserve(site.range_count);
    for (std::uint32_t r = site.first_range; r < site.first_range + site.range_count; ++r)
        bytes.push_back(program_range(trace.ranges[r]));
    std::sort(bytes.begin(), bytes.end(),
              [](const Interval& a, const Interval& b) { return a.lo < b.lo; });
    std::size_t kept = 0;
    for (const Interval& x : bytes) {
        if (kept != 0 && x.lo <= bytes[kept - 1].hi)
            bytes[kept - 1].hi = std::max(bytes[kept - 1].hi, x.hi);
        else
            bytes[kept++] = x;
    }
    bytes.resize(kept);
    return bytes;
}

class RunWriter {
  public:
    RunWriter(db::Connection& c, const Trace& trace, const AnalysisResult& result,
              const RunInfo& info, const DatabaseWriteOptions& options)
        : c_(c), trace_(trace), result_(result), info_(info), options_(options), facts_(trace),
          accesses_(trace) {
        total_ = trace.event_count() + trace.sites.size() + trace.ranges.size() +
                 result.edges.size() + 3 * result.races.size() + result.partitions.size() +
                 trace.locations.size() + 1;
    }

    std::int64_t write() {
        phase("writing database: trace");
        write_run_row();
        write_trace();
        phase("writing database: races");
        write_results();
        phase("writing database: race sites");
        write_site_pairs();
        phase("writing database: sources");
        if (options_.store_sources) write_sources();
        return run_;
    }

    void phase(const char* name) {
        phase_ = name;
        if (options_.progress) options_.progress(phase_, double(done_) / double(total_));
    }

  private:
    void tick(std::size_t n = 1) {
        done_ += n;
        if (options_.progress && (done_ & 0xffff) < n)
            options_.progress(phase_, double(done_) / double(total_));
    }

    void write_run_row() {
        std::optional<std::string> arguments;
        if (!info_.arguments.empty()) {
            std::ostringstream json;
            JsonWriter w(json);
            w.begin_array();
            for (const auto& a : info_.arguments)
                w.value(a);
            w.end_array();
            w.flush();
            arguments = json.str();
        }
        const std::string analyzed_at =
            info_.analyzed_at.empty() ? now_iso8601() : info_.analyzed_at;
        const AnalysisCounts& n = result_.counts;
        db::Statement s = c_.prepare("INSERT INTO runs (program, arguments, host, started_at, "
                                     "analyzed_at, trace_path, trace_format,"
                                     " tool_version, ordering, truncated, truncation_reason, "
                                     "transitive_budget_exceeded, events,"
                                     " computation_events, accesses, processes, apparent, actual, "
                                     "feasible, feasible_ec, unvalidated,"
                                     " tangles, partitions, first_partitions)"
                                     " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
        s.bind(1, info_.program).bind(2, arguments).bind(3, info_.host).bind(4, info_.started_at);
        s.bind(5, analyzed_at)
            .bind(6, trace_.path)
            .bind(7, trace_.format.empty() ? "std" : trace_.format);
        s.bind(8, info_.tool_version)
            .bind(9, to_string(result_.ordering))
            .bind(10, trace_.truncated);
        if (trace_.truncated) s.bind(11, trace_.truncation_reason);
        s.bind(12, result_.transitive_fallbacks > 0);
        s.bind(13, n.events)
            .bind(14, n.computation_events)
            .bind(15, n.accesses)
            .bind(16, n.processes);
        s.bind(17, n.apparent);
        if (result_.ordering == Ordering::Complete) s.bind(18, n.actual);
        s.bind(19, n.feasible).bind(20, n.feasible_ec).bind(21, n.unvalidated).bind(22, n.tangles);
        s.bind(23, n.partitions).bind(24, n.first_partitions);
        s.run();
        run_ = sqlite3_last_insert_rowid(c_.get());

        db::Statement stage = c_.prepare("INSERT INTO run_stages VALUES (?,?,?,?,?)");
        for (std::size_t i = 0; i < result_.stages.size(); ++i) {
            const StageStats& st = result_.stages[i];
            stage.bind(1, run_)
                .bind(2, static_cast<std::int64_t>(i))
                .bind(3, st.name)
                .bind(4, st.seconds);
            stage.bind(5, st.peak_rss_bytes).run();
        }
    }

    void write_trace() {
        db::Statement proc = c_.prepare("INSERT INTO processes VALUES (?,?,?,?,?,?)");
        for (std::size_t p = 0; p < trace_.processes.size(); ++p) {
            const Process& pr = trace_.processes[p];
            proc.bind(1, run_)
                .bind(2, static_cast<std::int64_t>(p))
                .bind(3, pr.name)
                .bind(4, id_or_null(pr.parent));
            proc.bind(5, static_cast<std::int64_t>(pr.events.size()))
                .bind(6, id_or_null(pr.parent == kNone ? kNone : facts_.creators()[p]))
                .run();
        }
        db::Statement var = c_.prepare("INSERT INTO variables VALUES (?,?,?)");
        for (std::size_t v = 0; v < trace_.variable_names.size(); ++v)
            var.bind(1, run_)
                .bind(2, static_cast<std::int64_t>(v))
                .bind(3, trace_.variable_names[v])
                .run();
        db::Statement obj = c_.prepare("INSERT INTO sync_objects VALUES (?,?,?,?,?,?,?)");
        for (std::uint32_t o = 0; o < trace_.objects.size(); ++o) {
            const SyncObject& so = trace_.objects[o];
            obj.bind(1, run_)
                .bind(2, static_cast<std::int64_t>(o))
                .bind(3, to_string(so.kind))
                .bind(4, so.name);
            obj.bind(5, so.address).bind(6, static_cast<std::int64_t>(so.initial_value));
            obj.bind(7, sync_object_label(trace_, facts_.names(), o)).run();
        }
        db::Statement loc = c_.prepare("INSERT INTO locations VALUES (?,?,?,?,?,?,?,?)");
        for (std::size_t l = 0; l < trace_.locations.size(); ++l) {
            const SourceLocation& sl = trace_.locations[l];
            loc.bind(1, run_)
                .bind(2, static_cast<std::int64_t>(l))
                .bind(3, sl.file)
                .bind(4, sl.line);
            loc.bind(5, sl.column).bind(6, sl.function).bind(7, sl.pc);
            loc.bind(8, id_or_null(sl.inlined_into)).run();
            tick();
        }
        db::Statement ctx = c_.prepare("INSERT INTO contexts VALUES (?,?,?,?)");
        for (std::size_t i = 0; i < trace_.contexts.size(); ++i) {
            const ContextFrame& f = trace_.contexts[i];
            ctx.bind(1, run_).bind(2, static_cast<std::int64_t>(i)).bind(3, id_or_null(f.parent));
            ctx.bind(4, id_or_null(f.location)).run();
        }

        // Events in (process, idx) order; remember which event holds each site. Events that
        // share a run of sites (trace_site_runs.hpp) hold rows of their own: the first one
        // the run's ids, each later one a copy at ids after the trace's sites (site_id).
        std::vector<std::pair<std::uint32_t, std::uint32_t>> site_owner(trace_.sites.size(),
                                                                        {kNone, kNone});
        std::vector<EventRef> copies;
        auto next_copy = static_cast<std::uint32_t>(trace_.sites.size());
        db::BulkInsert ev(c_, "events", 11);
        for (std::uint32_t p = 0; p < trace_.processes.size(); ++p) {
            const auto& events = trace_.processes[p].events;
            for (std::uint32_t i = 0; i < events.size(); ++i) {
                const Event& e = events[i];
                ev.add(run_)
                    .add(p)
                    .add(i)
                    .add(to_string(e.kind))
                    .add(id_or_null(e.object))
                    .add(e.counter);
                if (trace_.has_clock)
                    ev.add(e.clock_start).add(e.clock_finish);
                else
                    ev.add_null().add_null();
                ev.add(id_or_null(e.context))
                    .add(id_or_null(e.location))
                    .add(e.site_count)
                    .end_row();
                if (e.site_count > 0 && e.first_site < site_owner.size() &&
                    site_owner[e.first_site].first != kNone) {
                    copied_sites_.emplace(event_key({p, i}), next_copy);
                    next_copy += e.site_count;
                    copies.push_back({p, i});
                }
                for (std::uint32_t s = e.first_site;
                     s < e.first_site + e.site_count && s < site_owner.size(); ++s)
                    if (site_owner[s].first == kNone) site_owner[s] = {p, i};
                tick();
            }
        }
        ev.finish();
        db::BulkInsert site(c_, "access_sites", 8);
        db::BulkInsert range(c_, "site_ranges", 4);
        for (std::uint32_t s = 0; s < trace_.sites.size(); ++s) {
            const AccessSite as = trace_.sites[s];
            site.add(run_)
                .add(s)
                .add(id_or_null(site_owner[s].first))
                .add(id_or_null(site_owner[s].second));
            site.add(id_or_null(as.location))
                .add(site_kind(as.flags))
                .add(static_cast<std::int64_t>(as.flags))
                .add(id_or_null(as.context))
                .end_row();
            for (const Interval& bytes : program_ranges(trace_, as)) {
                range.add(run_).add(s).add(bytes.lo).add(bytes.hi).end_row();
                tick();
            }
            tick();
        }
        for (const EventRef& owner : copies) {
            const Event& e = trace_.processes[owner.process].events[owner.index];
            const std::uint32_t base = copied_sites_.at(event_key(owner));
            for (std::uint32_t k = 0; k < e.site_count; ++k) {
                const AccessSite as = trace_.sites[e.first_site + k];
                site.add(run_).add(base + k).add(owner.process).add(owner.index);
                site.add(id_or_null(as.location))
                    .add(site_kind(as.flags))
                    .add(static_cast<std::int64_t>(as.flags))
                    .add(id_or_null(as.context))
                    .end_row();
                for (const Interval& bytes : program_ranges(trace_, as))
                    range.add(run_).add(base + k).add(bytes.lo).add(bytes.hi).end_row();
            }
        }
        site.finish();
        range.finish();
        db::BulkInsert heap(c_, "heap_blocks", 8);
        for (std::uint32_t h = 0; h < trace_.heap_blocks.size(); ++h) {
            const HeapBlock& b = trace_.heap_blocks[h];
            heap.add(run_).add(h).add(b.range.lo).add(b.range.hi).add(id_or_null(b.process));
            heap.add(id_or_null(b.event)).add(id_or_null(b.location)).add(id_or_null(b.context));
            heap.end_row();
        }
        heap.finish();
        db::BulkInsert edge(c_, "graph_edges", 7);
        for (const GraphEdge& g : result_.edges) {
            edge.add(run_).add(to_string(g.kind)).add(g.from.process).add(g.from.index);
            edge.add(g.to.process).add(g.to.index).add(g.transitive).end_row();
            tick();
        }
        edge.finish();
    }

    void write_results() {
        db::Statement part = c_.prepare("INSERT INTO partitions VALUES (?,?,?,?)");
        db::Statement after = c_.prepare("INSERT INTO partition_edges VALUES (?,?,?,?)");
        for (const Partition& p : result_.partitions) {
            part.bind(1, run_)
                .bind(2, p.id)
                .bind(3, p.first)
                .bind(4, static_cast<std::int64_t>(p.race_count))
                .run();
            for (std::size_t i = 0; i < p.after.size(); ++i)
                after.bind(1, run_)
                    .bind(2, p.id)
                    .bind(3, static_cast<std::int64_t>(i))
                    .bind(4, p.after[i])
                    .run();
            tick();
        }
        std::map<std::uint32_t, std::pair<std::uint32_t, std::uint32_t>>
            tangles; // id -> races, feasible
        db::BulkInsert race(c_, "races", 10);
        db::BulkInsert var(c_, "race_variables", 6);
        db::BulkInsert acc(c_, "race_accesses", 5);
        const bool named = !trace_.variable_names.empty();
        const MemoryNames names(trace_);
        for (const Race& r : result_.races) {
            race.add(run_)
                .add(r.id)
                .add(r.a.process)
                .add(r.a.index)
                .add(r.b.process)
                .add(r.b.index);
            race.add(to_string(r.status)).add(r.tangle).add(r.actual).add(r.partition).end_row();
            if (r.tangle) {
                auto& t = tangles[*r.tangle];
                ++t.first;
                if (r.status != RaceStatus::Unvalidated) ++t.second;
            }
            // The variables exactly as make_report_model names them, from the race's accesses
            // recomputed here (the race record holds only its events).
            const RaceAccesses& accesses = accesses_.of(r);
            std::int64_t ordinal = 0;
            for (const Interval& c : accesses.conflicts) {
                if (named) {
                    for (std::uint64_t v = c.lo; v < c.hi; ++v) {
                        const std::string name = names.name({v, v + 1});
                        var.add(run_)
                            .add(r.id)
                            .add(ordinal++)
                            .add(name)
                            .add(v)
                            .add(v + 1)
                            .end_row();
                    }
                } else {
                    const std::string name = names.name(c);
                    const Interval bytes = program_range(c);
                    var.add(run_).add(r.id).add(ordinal++).add(name).add(bytes.lo).add(bytes.hi);
                    var.end_row();
                }
            }
            for (std::size_t i = 0; i < accesses.sites_a.size(); ++i)
                acc.add(run_)
                    .add(r.id)
                    .add("a")
                    .add(static_cast<std::int64_t>(i))
                    .add(site_id(r.a, accesses.sites_a[i]))
                    .end_row();
            for (std::size_t i = 0; i < accesses.sites_b.size(); ++i)
                acc.add(run_)
                    .add(r.id)
                    .add("b")
                    .add(static_cast<std::int64_t>(i))
                    .add(site_id(r.b, accesses.sites_b[i]))
                    .end_row();
            tick(2);
        }
        race.finish();
        var.finish();
        acc.finish();
        write_held_locks();
        write_orderings();
        db::Statement tangle = c_.prepare("INSERT INTO tangles VALUES (?,?,?,?)");
        for (const auto& [id, t] : tangles)
            tangle.bind(1, run_).bind(2, id).bind(3, t.first).bind(4, t.second).run();
    }

    // The locks held during every event of a race (what make_report_model shows per side).
    void write_held_locks() {
        std::vector<EventRef> events;
        for (const Race& r : result_.races) {
            events.push_back(r.a);
            events.push_back(r.b);
        }
        std::sort(events.begin(), events.end());
        events.erase(std::unique(events.begin(), events.end()), events.end());
        db::BulkInsert held(c_, "held_locks", 6);
        for (const EventRef& e : events) {
            std::int64_t ordinal = 0;
            for (const HeldLock& h : facts_.locks().at(e.process, e.index))
                held.add(run_)
                    .add(e.process)
                    .add(e.index)
                    .add(ordinal++)
                    .add(h.object)
                    .add(h.acquired)
                    .end_row();
        }
        held.finish();
    }

    // For each race of a later partition, the race it is ordered after and the chain.
    void write_orderings() {
        const OrderingChains chains(trace_, result_);
        db::BulkInsert after(c_, "race_orderings", 3);
        db::BulkInsert step(c_, "race_ordering_steps", 10);
        for (const Race& r : result_.races) {
            const auto found = chains.of(r.id);
            if (!found) continue;
            after.add(run_).add(r.id).add(found->race).end_row();
            std::int64_t ordinal = 0;
            for (const OrderingStep& s : found->chain) {
                const Event& e = trace_.processes[s.event.process].events[s.event.index];
                const auto [location, context] = event_origin(trace_, e);
                step.add(run_).add(r.id).add(ordinal++).add(s.event.process).add(s.event.index);
                step.add(to_string(s.via))
                    .add(to_string(e.kind))
                    .add(event_object_label(trace_, facts_.names(), e));
                step.add(id_or_null(location)).add(id_or_null(context)).end_row();
            }
        }
        after.finish();
        step.finish();
    }

    // The race sites: the headline-location pairs of every race's conflicting site pairs
    // (for_each_conflicting_site_pair, the definition make_report_model uses too), keyed by the
    // (file, line) pairs only, as group_race_sites computes them from a ReportModel.
    void write_site_pairs() {
        std::vector<SiteEnd> ends;
        std::unordered_map<std::string, std::uint32_t> end_by_key;
        auto end_of = [&](const SiteEnd& e) {
            auto [it, inserted] = end_by_key.try_emplace(location_key(e.file, e.line),
                                                         static_cast<std::uint32_t>(ends.size()));
            if (inserted) ends.push_back(e);
            return it->second;
        };
        const std::uint32_t unknown = end_of(SiteEnd{});
        std::vector<std::uint32_t> end_of_location(trace_.locations.size());
        for (std::size_t l = 0; l < trace_.locations.size(); ++l) {
            const SourceLocation& sl = trace_.locations[l];
            end_of_location[l] = end_of(SiteEnd{sl.file, sl.line, sl.column, sl.function});
        }
        // The end of each access site, computed once per site (its headline frame).
        std::vector<std::uint32_t> end_of_site(trace_.sites.size(), kNone);
        auto site_end = [&](std::uint32_t s) {
            if (s >= trace_.sites.size()) return unknown;
            std::uint32_t& e = end_of_site[s];
            if (e == kNone) {
                const std::uint32_t loc = site_headline(trace_, trace_.sites[s]);
                e = loc < end_of_location.size() ? end_of_location[loc] : unknown;
            }
            return e;
        };
        std::unordered_map<std::uint64_t, std::uint32_t> pair_ids;
        std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;      // id -> (end, end)
        std::vector<std::pair<std::uint32_t, std::uint32_t>> membership; // (pair, race)
        auto pair_id = [&](std::uint32_t x, std::uint32_t y) {
            if (site_end_less(ends[y], ends[x])) std::swap(x, y);
            const std::uint64_t k = (std::uint64_t(x) << 32) | y;
            auto [it, inserted] = pair_ids.try_emplace(k, static_cast<std::uint32_t>(pairs.size()));
            if (inserted) pairs.emplace_back(x, y);
            return it->second;
        };
        db::BulkInsert instance(c_, "race_site_instances", 7);
        const MemoryNames names(trace_);
        ConflictScratch scratch;
        for (const Race& r : result_.races) {
            const std::size_t before = membership.size();
            std::int64_t ordinal = 0;
            const RaceAccesses& accesses = accesses_.of(r);
            for_each_conflicting_site_pair(
                trace_, accesses, scratch,
                [&](std::uint32_t a, std::uint32_t b, const std::vector<Interval>& shared) {
                    const std::uint32_t id =
                        pair_id(site_end(accesses.sites_a[a]), site_end(accesses.sites_b[b]));
                    membership.emplace_back(id, r.id);
                    instance.add(run_).add(r.id).add(ordinal++).add(a).add(b).add(id);
                    instance.add(shared_variable_name(trace_, names, shared)).end_row();
                });
            // A race without recorded sites is an instance of the unknown pair.
            if (ordinal == 0) membership.emplace_back(pair_id(unknown, unknown), r.id);
            // Several site pairs of one race can share a headline pair; keep one membership.
            std::sort(membership.begin() + static_cast<std::ptrdiff_t>(before), membership.end());
            membership.erase(std::unique(membership.begin() + static_cast<std::ptrdiff_t>(before),
                                         membership.end()),
                             membership.end());
            tick();
        }
        instance.finish();
        db::BulkInsert pair(c_, "site_pairs", 9);
        for (std::uint32_t id = 0; id < pairs.size(); ++id) {
            const SiteEnd& x = ends[pairs[id].first];
            const SiteEnd& y = ends[pairs[id].second];
            pair.add(run_).add(id).add(site_key(x, y)).add(x.file).add(x.line).add(x.function);
            pair.add(y.file).add(y.line).add(y.function).end_row();
        }
        pair.finish();
        std::sort(membership.begin(), membership.end());
        db::BulkInsert member(c_, "race_site_pairs", 3);
        for (const auto& [p, r] : membership)
            member.add(run_).add(p).add(r).end_row();
        member.finish();
    }

    // Which files are stored (issue 13; README "Security and robustness"): the trace is
    // untrusted input, so a location must not publish an arbitrary file (/etc/passwd:1).
    //  - With source directories (`analyze --source-root`): only files whose real path, every
    //    symbolic link resolved, lies under one of them; relative names are looked up there.
    //  - Without: for a recorded trace, the absolute files its debug information names (what
    //    the compiler read); for a text trace, none.
    //  - Always only regular files (a FIFO or device is never opened for reading).
    std::optional<fs::path> find_source(const std::string& file,
                                        const std::vector<fs::path>& roots) const {
        std::error_code ec;
        const fs::path f(file);
        std::vector<fs::path> candidates;
        if (f.is_absolute())
            candidates.push_back(f);
        else
            for (const fs::path& root : roots)
                candidates.push_back(root / f);
        const bool confined = !roots.empty();
        if (!confined && trace_.format != "firstrace") return std::nullopt;
        for (const fs::path& c : candidates) {
            const fs::path real = fs::canonical(c, ec);
            if (ec || !fs::is_regular_file(fs::symlink_status(real, ec))) continue;
            if (confined && std::none_of(roots.begin(), roots.end(), [&](const fs::path& root) {
                    const auto [r, p] =
                        std::mismatch(root.begin(), root.end(), real.begin(), real.end());
                    return r == root.end();
                }))
                continue;
            return real;
        }
        return std::nullopt;
    }

    void write_sources() {
        std::vector<std::string> files;
        for (const SourceLocation& l : trace_.locations)
            if (!l.file.empty()) files.push_back(l.file);
        std::sort(files.begin(), files.end());
        files.erase(std::unique(files.begin(), files.end()), files.end());
        std::vector<fs::path> roots;
        for (const std::string& d : options_.source_directories) {
            std::error_code ec;
            const fs::path root = fs::canonical(d, ec);
            if (ec || !fs::is_directory(root, ec))
                throw InputError(d, 0, "not a directory (given as a source root)");
            roots.push_back(root);
        }
        db::Statement find = c_.prepare("SELECT id, text FROM source_texts WHERE hash = ?");
        db::Statement add =
            c_.prepare("INSERT INTO source_texts (hash, size, text) VALUES (?,?,?)");
        db::Statement file = c_.prepare("INSERT INTO source_files VALUES (?,?,?,?)");
        for (const std::string& name : files) {
            std::optional<std::int64_t> text_id;
            std::optional<std::string> resolved;
            if (auto path = find_source(name, roots)) {
                resolved = path->string();
                try {
                    // The resolved path has no link left: O_NOFOLLOW refuses one planted since.
                    const RegularFile in(path->string(), Symlinks::Refuse);
                    if (in.size() <= options_.max_source_bytes) {
                        const std::string text = in.read_all(options_.max_source_bytes);
                        // Binary files (NUL bytes) are not sources: recorded without text.
                        if (text.find('\0') == std::string::npos)
                            text_id = store_text(find, add, text);
                    }
                } catch (const InputError&) {
                    // unreadable, replaced, grown: recorded without text
                }
            }
            file.bind(1, run_).bind(2, name).bind(3, resolved).bind(4, text_id).run();
        }
    }

    std::int64_t store_text(db::Statement& find, db::Statement& add, const std::string& text) {
        const auto hash = static_cast<std::int64_t>(fnv1a(text));
        find.bind(1, hash);
        while (find.step()) {
            if (find.text(1) == text) {
                const std::int64_t id = find.int64(0);
                find.reset();
                return id;
            }
        }
        find.reset();
        add.bind(1, hash).bind(2, static_cast<std::int64_t>(text.size())).bind(3, text).run();
        return sqlite3_last_insert_rowid(c_.get());
    }

    db::Connection& c_;
    const Trace& trace_;
    const AnalysisResult& result_;
    const RunInfo& info_;
    const DatabaseWriteOptions& options_;
    const ReportEventFacts facts_; // names, held locks and creators, computed once
    RaceAccessFinder accesses_;    // each race's conflicts and sites, recomputed race by race
    // Events holding a copy of a shared run of sites: (process << 32 | index) -> first id.
    std::unordered_map<std::uint64_t, std::uint32_t> copied_sites_;
    static std::uint64_t event_key(const EventRef& e) {
        return (std::uint64_t{e.process} << 32) | e.index;
    }
    // The database id of trace site `s` as a site of event `e`.
    std::uint32_t site_id(const EventRef& e, std::uint32_t s) const {
        const auto it = copied_sites_.find(event_key(e));
        if (it == copied_sites_.end()) return s;
        return it->second + (s - trace_.processes[e.process].events[e.index].first_site);
    }
    std::int64_t run_ = 0;
    std::size_t done_ = 0, total_ = 1;
    std::string phase_ = "writing database";
};

// Removes the file this writer created after its run failed, but only while it still holds the
// write lock, the path still names the file it opened, and no table was committed to it (by
// anyone): a database another writer committed in between is never deleted.
void remove_if_uncommitted(db::Connection& c, const std::string& database) noexcept {
    if (sqlite3_exec(c.get(), "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) != SQLITE_OK) return;
    int moved = 1;
    sqlite3_file_control(c.get(), "main", SQLITE_FCNTL_HAS_MOVED, &moved);
    sqlite3_stmt* count = nullptr;
    bool empty = false;
    if (sqlite3_prepare_v2(c.get(), "SELECT count(*) FROM sqlite_master", -1, &count, nullptr) ==
            SQLITE_OK &&
        sqlite3_step(count) == SQLITE_ROW)
        empty = sqlite3_column_int64(count, 0) == 0;
    sqlite3_finalize(count);
    if (!moved && empty) ::unlink(database.c_str());
    sqlite3_exec(c.get(), "ROLLBACK", nullptr, nullptr, nullptr);
}

} // namespace

int results_database_schema_version() {
    return db::kSchemaVersion;
}

std::int64_t write_run(const std::string& database, const Trace& trace,
                       const AnalysisResult& result, const RunInfo& info,
                       const DatabaseWriteOptions& options) {
    // Whether this writer creates the file is decided by the create itself (O_CREAT|O_EXCL), not
    // by an earlier look: between a look and the open another writer may create and commit it.
    bool created = false;
    {
        const int fd = ::open(database.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) {
            created = true;
            ::close(fd);
        } else if (errno != EEXIST) {
            throw InputError(database, 0,
                             std::string("cannot create the database: ") + std::strerror(errno));
        }
    }
    {
        db::Connection c(database, db::Connection::Mode::ReadWrite);
        c.exec("PRAGMA cache_size = -65536");
        // Rebuilding the indexes sorts in memory rather than through temporary files.
        c.exec("PRAGMA temp_store = MEMORY");
        // The write lock first, so that the checks and the run see the same file; nothing is
        // written before the checks pass, and a failure rolls back everything of this run.
        c.exec("BEGIN IMMEDIATE");
        try {
            // A writer that created the path and failed removes it (remove_if_uncommitted); a run
            // committed to the removed file would be lost, so this one stops instead.
            int moved = 0;
            sqlite3_file_control(c.get(), "main", SQLITE_FCNTL_HAS_MOVED, &moved);
            if (moved)
                throw InputError(database, 0,
                                 "the database was removed by a concurrent writer while this "
                                 "run waited for it; nothing was stored");
            const int version = db::check_database(c);
            if (version == 0) {
                db::create_schema(c);
            } else {
                db::check_integrity(c, options.integrity_check);
                if (version < db::kSchemaVersion) db::migrate(c, version);
            }
            // Bulk load: secondary indexes are dropped and rebuilt by sorting once, instead of
            // being updated in random order row by row (several times faster for 10^6 races).
            // Rebuilding sorts every run's rows, so it pays only when the new run is a good part
            // of the database; a small run into a large database updates them in place.
            const std::uint64_t new_rows = trace.event_count() + trace.sites.size() +
                                           trace.ranges.size() + result.edges.size() +
                                           4 * result.races.size();
            const std::uint64_t database_bytes = static_cast<std::uint64_t>(
                c.query_int("PRAGMA page_count") * c.query_int("PRAGMA page_size"));
            const bool rebuild_indexes = new_rows >= 10000 && new_rows * 64 >= database_bytes / 4;
            std::vector<std::pair<std::string, std::string>> indexes;
            if (rebuild_indexes) {
                db::Statement s = c.prepare("SELECT name, sql FROM sqlite_master WHERE type = "
                                            "'index' AND sql IS NOT NULL ORDER BY name");
                while (s.step())
                    indexes.emplace_back(s.text(0), s.text(1));
            }
            for (const auto& [name, sql] : indexes)
                c.exec("DROP INDEX \"" + name + "\"");
            RunWriter writer(c, trace, result, info, options);
            const std::int64_t run = writer.write();
            writer.phase("writing database: indexes");
            for (const auto& [name, sql] : indexes)
                c.exec(sql);
            writer.phase("writing database: commit");
            c.exec("COMMIT");
            return run;
        } catch (...) {
            sqlite3_exec(c.get(), "ROLLBACK", nullptr, nullptr, nullptr);
            if (created) remove_if_uncommitted(c, database);
            throw;
        }
    }
}

} // namespace firstrace
