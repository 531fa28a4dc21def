// Race sites (DESIGN "Outputs"): a race site is an unordered pair (access site of one event,
// access site of the other) whose byte ranges intersect, at least one writing and not both
// atomic, named by the headline frame of each side, with the variable they conflict on. The
// instances are computed once on the trace (conflicting_site_pairs); reports group them by the
// (file, line) pair of the two headline locations.
#include "report_sites.hpp"

#include <algorithm>
#include <bit>
#include <functional>
#include <optional>
#include <set>
#include <string_view>
#include <tuple>
#include <unordered_map>

#include "firstrace/triage_report.hpp"
#include "report_call_stacks.hpp"
#include "report_ordering_chains.hpp"
#include "report_site_nodes.hpp"
#include "report_site_rank_folder.hpp"
#include "report_site_rank_table.hpp"

namespace firstrace {
namespace {

// (file, line) of a headline location, hashed without building a string.
struct EndKey {
    std::string_view file;
    std::uint32_t line = 0;
    friend bool operator==(const EndKey&, const EndKey&) = default;
};
struct EndKeyHash {
    std::size_t operator()(const EndKey& k) const {
        return std::hash<std::string_view>()(k.file) * 31 + k.line;
    }
};

// Interns the (file, line) ends of a model's sites: ends compare by their dense ids, ordered
// like site_end_less.
class EndTable {
  public:
    std::uint32_t id(const ReportSite& s) {
        auto [it, inserted] =
            ids_.try_emplace(EndKey{s.file, s.line}, static_cast<std::uint32_t>(ends_.size()));
        if (inserted) ends_.push_back(SiteEnd{s.file, s.line, s.column, s.function});
        return it->second;
    }
    const SiteEnd& end(std::uint32_t id) const { return ends_[id]; }

  private:
    std::unordered_map<EndKey, std::uint32_t, EndKeyHash> ids_;
    std::vector<SiteEnd> ends_;
};

// Calls f(a-site, b-site, variable) for each race site instance of the race; a race without
// any (a hand-made model without sites) is one instance of the unknown pair.
template <class F> void for_each_instance(const ReportRace& race, F&& f) {
    static const ReportSite unknown;
    static const std::string none;
    bool any = false;
    for (const ReportSitePair& p : race.pairs) {
        if (p.a >= race.sites_a.size() || p.b >= race.sites_b.size()) continue;
        f(race.sites_a[p.a], race.sites_b[p.b], p.variable);
        any = true;
    }
    if (!any) f(unknown, unknown, none);
}

} // namespace

std::vector<ConflictingSitePair> conflicting_site_pairs(const Trace& trace,
                                                        const RaceAccesses& race) {
    std::vector<ConflictingSitePair> out;
    ConflictScratch scratch;
    for_each_conflicting_site_pair(
        trace, race, scratch,
        [&](std::uint32_t i, std::uint32_t j, const std::vector<Interval>& shared) {
            out.push_back({i, j, shared});
        });
    return out;
}

std::string shared_variable_name(const Trace& trace, const MemoryNames& names,
                                 const std::vector<Interval>& shared) {
    constexpr std::size_t kShown = 3;
    std::string out;
    std::size_t n = 0;
    auto add = [&](const Interval& r) {
        if (n++ < kShown) out += (out.empty() ? "" : ", ") + names.name(r);
    };
    for (const Interval& r : shared) {
        if (!trace.variable_names.empty())
            for (std::uint64_t v = r.lo; v < r.hi; ++v)
                add({v, v + 1});
        else
            add(r);
    }
    if (n > kShown) out += ", … (" + std::to_string(n) + " in all)";
    return out;
}

std::string location_key(const std::string& file, std::uint32_t line) {
    if (file.empty()) return "<unknown>";
    return line == 0 ? file : file + ":" + std::to_string(line);
}

bool site_end_less(const SiteEnd& x, const SiteEnd& y) {
    return std::tie(x.file, x.line) < std::tie(y.file, y.line);
}

std::string site_key(const SiteEnd& x, const SiteEnd& y) {
    const bool swap = site_end_less(y, x);
    const SiteEnd& first = swap ? y : x;
    const SiteEnd& second = swap ? x : y;
    return location_key(first.file, first.line) + " <-> " + location_key(second.file, second.line);
}

RaceStatus RaceSite::strongest() const {
    if (feasible > 0) return RaceStatus::Feasible;
    if (feasible_ec > 0) return RaceStatus::FeasibleEc;
    return RaceStatus::Unvalidated;
}

std::vector<std::string> race_site_keys(const ReportRace& race) {
    std::vector<std::string> keys;
    for_each_instance(race, [&](const ReportSite& a, const ReportSite& b, const std::string&) {
        keys.push_back(site_key(SiteEnd{a.file, a.line, a.column, a.function},
                                SiteEnd{b.file, b.line, b.column, b.function}));
    });
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    return keys;
}

std::vector<RaceSite> group_race_sites(const ReportModel& model) {
    std::vector<bool> first_partition;
    for (const ReportPartition& p : model.partitions) {
        if (p.id >= first_partition.size()) first_partition.resize(p.id + 1, false);
        first_partition[p.id] = p.first;
    }
    EndTable ends;
    std::unordered_map<std::uint64_t, std::size_t> index; // (end, end) -> sites index
    std::vector<RaceSite> sites;
    // The ordinal of the last race counted at each site: a race is counted once per site,
    // however many of its site pairs map to it (a stamp, not a search: dense races have
    // hundreds of pairs).
    std::vector<std::size_t> counted_race;
    std::size_t ordinal = 0;
    for (const ReportRace& r : model.races) {
        const bool first = r.partition < first_partition.size() && first_partition[r.partition];
        ++ordinal;
        for_each_instance(
            r, [&](const ReportSite& a, const ReportSite& b, const std::string& variable) {
                std::uint32_t x = ends.id(a), y = ends.id(b);
                const bool swap = site_end_less(ends.end(y), ends.end(x));
                if (swap) std::swap(x, y);
                auto [it, inserted] = index.try_emplace((std::uint64_t(x) << 32) | y, sites.size());
                if (inserted) {
                    counted_race.push_back(0);
                    RaceSite site;
                    site.first = ends.end(x);
                    site.second = ends.end(y);
                    site.key = site_key(site.first, site.second);
                    site.first_partition = r.partition;
                    sites.push_back(std::move(site));
                }
                RaceSite& s = sites[it->second];
                if (!variable.empty()) s.variables.insert(variable);
                if (counted_race[it->second] == ordinal) return;
                counted_race[it->second] = ordinal;
                s.races.push_back(r.id);
                s.runs.insert(r.run);
                s.threads.insert(r.a.thread);
                s.threads.insert(r.b.thread);
                switch (r.status) {
                case RaceStatus::Feasible:
                    ++s.feasible;
                    break;
                case RaceStatus::FeasibleEc:
                    ++s.feasible_ec;
                    break;
                case RaceStatus::Unvalidated:
                    ++s.unvalidated;
                    break;
                }
                // The access pair shown is that of the strongest, then earliest, instance.
                if (inserted || r.status < s.example_status) {
                    s.access_first = swap ? b : a;
                    s.access_second = swap ? a : b;
                    s.thread_first = swap ? r.b.thread : r.a.thread;
                    s.thread_second = swap ? r.a.thread : r.b.thread;
                    s.event_first = swap ? r.b : r.a;
                    s.event_second = swap ? r.a : r.b;
                    s.example_ordered_after = r.ordered_after;
                    s.example_race = r.id;
                    s.example_status = r.status;
                }
                if (r.actual.value_or(false)) ++s.actual;
                if (first) s.in_first_partition = true;
                s.first_partition = std::min(s.first_partition, r.partition);
            });
    }
    for (RaceSite& s : sites)
        std::sort(s.races.begin(), s.races.end());
    std::sort(sites.begin(), sites.end(), [](const RaceSite& x, const RaceSite& y) {
        return std::tie(x.first_partition, x.races.front(), x.key) <
               std::tie(y.first_partition, y.races.front(), y.key);
    });
    return sites;
}

std::map<std::uint32_t, std::vector<const RaceSite*>>
sites_by_first_partition(const ReportModel& model, const std::vector<RaceSite>& sites) {
    std::unordered_map<std::uint32_t, std::uint32_t> partition_of;
    for (const ReportRace& r : model.races)
        partition_of[r.id] = r.partition;
    std::unordered_map<std::uint32_t, bool> first;
    for (const ReportPartition& p : model.partitions)
        first[p.id] = p.first;
    std::map<std::uint32_t, std::vector<const RaceSite*>> out;
    for (const RaceSite& s : sites) {
        std::set<std::uint32_t> partitions;
        for (std::uint32_t id : s.races) {
            const std::uint32_t p = partition_of[id];
            if (first[p]) partitions.insert(p);
        }
        for (std::uint32_t p : partitions)
            out[p].push_back(&s);
    }
    return out;
}

ListedRaceSites listed_race_sites(const ReportModel& model) {
    ListedRaceSites out;
    ReportModel listed;
    listed.ordering = model.ordering;
    listed.partitions = model.partitions;
    std::vector<bool> first(model.partitions.size() + 1, false);
    for (const ReportPartition& p : model.partitions) {
        if (p.id >= first.size()) first.resize(p.id + 1, false);
        first[p.id] = p.first;
    }
    std::set<std::uint32_t> later_partitions;
    for (const ReportRace& r : model.races) {
        const bool in_first = r.partition < first.size() && first[r.partition];
        if (in_first || r.status != RaceStatus::Unvalidated) {
            listed.races.push_back(r);
        } else {
            ++out.later_unvalidated;
            later_partitions.insert(r.partition);
        }
    }
    out.later_partitions = later_partitions.size();
    out.sites = group_race_sites(listed);
    return out;
}

namespace {

// group_race_sites on the analysis itself, for traces with millions of races and hundreds of
// race sites per race: ends, site pairs, variables and threads are dense integer ids (each
// headline computed once per access site, each variable name once per distinct set of shared
// bytes). One pass over every race selects the listed ones (select_listed, by column), then
// two passes over those:
//  1. every race site and the minima that rank it (smallest race, partition, in a first
//     partition), folded per event without enumerating the race sites of each race
//     (report_site_nodes.hpp), except for races between processes of one OS thread;
//  2. the race sites shown, in full (counts, threads, variables, the example instance): only
//     the access sites whose headline is an end of a shown race site are paired.
class ListedSiteGrouping {
  public:
    ListedSiteGrouping(const Trace& trace, const AnalysisResult& result)
        : trace_(trace), result_(result), accesses_(trace),
          end_of_site_(trace.sites.size(), kNone) {}

    ListedRaceSites run(std::size_t limit) {
        ListedRaceSites out;
        if (result_.races.empty()) return out; // no per-event tables over a race-free trace
        // Whether each partition is a first one, a byte each (every pass asks it per race).
        first_partition_.reserve(result_.partitions.size());
        for (const Partition& p : result_.partitions)
            first_partition_.push_back(p.first);
        // The events of the races the report lists, and the ends of their sites, in race order
        // (a before b; an end keeps the column and function of the first site seen with it).
        const std::vector<EventRef>& events = result_.races.events();
        racing_.resize(trace_.processes.size());
        for (std::size_t p = 0; p < trace_.processes.size(); ++p)
            racing_[p].assign(trace_.processes[p].events.size(), false);
        std::vector<std::uint8_t> marked(events.size(), 0); // per event number
        auto mark = [&](std::uint32_t number) {
            if (marked[number]) return;
            marked[number] = 1;
            const EventRef& e = events[number];
            if (racing_[e.process][e.index]) return;
            racing_[e.process][e.index] = true;
            const Event& event = trace_.processes[e.process].events[e.index];
            for (std::uint32_t s = event.first_site; s < event.first_site + event.site_count; ++s)
                site_end(s);
        };
        select_listed(mark, out);
        unknown_end_ = end_id({}, 0, nullptr);
        // Node entries beyond a few per range mean ranges covering many segments: pair
        // instances race by race instead (exact either way).
        const SiteNodeIndex index(trace_, racing_, end_of_site_,
                                  4 * trace_.ranges.size() + (1u << 20));
        number_facts(index);
        table_.emplace(ends_.size());
        if (static_) {
            // The ends of access nodes: those a fold joins.
            std::vector<bool> node_ends(ends_.size(), false);
            for (std::uint32_t number = 0; number < node_span_.size(); ++number)
                for (auto [n, last] = nodes_of(number); n != last; ++n)
                    node_ends[n->end()] = true;
            table_->floor_ends(node_ends);
        }
        rank_all(index, *table_);
        orient(*table_);
        std::vector<std::uint32_t> order = listed_order(limit, out);
        detail_groups(index, order);
        out.sites = finish(order);
        return out;
    }

  private:
    // A race site and its ranking minima (pass 1).
    struct RankedGroup {
        std::uint32_t first_end = 0, second_end = 0; // site_end_less order
        SiteRankKey key;
    };
    // A shown race site while its races are counted (pass 2); example sides are access sites
    // (kNone: unknown).
    struct Group {
        std::uint32_t counted_race = kNone; // the last race counted here
        std::uint32_t last_variable = kNone;
        std::uint32_t smallest_race = kNone;
        std::uint32_t feasible = 0, feasible_ec = 0, unvalidated = 0, actual = 0;
        bool in_first_partition = false;
        std::uint32_t first_partition = kNone;
        std::uint32_t example_race = 0;
        RaceStatus example_status = RaceStatus::Unvalidated;
        std::uint32_t example_first = kNone, example_second = kNone; // access sites
        std::uint32_t process_first = kNone, process_second = kNone;
        bool example_swapped = false; // the example's first side is its race's event b
    };

    bool in_first(const Race& race) const {
        return race.partition < first_partition_.size() && first_partition_[race.partition];
    }
    // The same of race i of result_.races, by column.
    bool in_first(std::size_t i) const {
        const std::uint32_t p = result_.races.partition(i);
        return p < first_partition_.size() && first_partition_[p];
    }
    // The report lists the races of first partitions and the validated ones. The one pass over
    // every race: which races are listed (a bit each in listed_races_, so that the later passes
    // read the listed races alone: on fork/join waves 13 % of 2.3·10^8), by column, 64 races a
    // word, and the count of the others and of their partitions. Then mark(event number) for
    // both events of each listed race, and whether their ids ascend.
    template <class Mark> void select_listed(Mark&& mark, ListedRaceSites& out) {
        const RaceList& races = result_.races;
        const std::size_t n = races.size();
        listed_races_.assign((n + 63) / 64, 0);
        // Per partition: 1 if first (its unvalidated races are listed). Partitions beyond the
        // result's (a hand-made one) are not first and not counted as later.
        const std::size_t partitions = result_.partitions.size();
        std::vector<std::uint8_t> later_partition(partitions + 1, 0);
        std::size_t listed_count = 0;
        for (std::size_t w = 0; w * 64 < n; ++w) {
            const std::size_t last = std::min(n, w * 64 + 64);
            std::uint64_t bits = 0;
            for (std::size_t i = w * 64; i < last; ++i) {
                const std::uint32_t partition = races.partition(i);
                const std::size_t known = partition < partitions ? partition : partitions;
                const bool listed = races.status(i) != RaceStatus::Unvalidated ||
                                    (known < partitions && first_partition_[known]);
                bits |= std::uint64_t(listed) << (i % 64);
                later_partition[known] |= static_cast<std::uint8_t>(!listed);
            }
            listed_races_[w] = bits;
            listed_count += static_cast<std::size_t>(std::popcount(bits));
        }
        out.later_unvalidated = n - listed_count;
        out.later_partitions = static_cast<std::size_t>(
            std::count(later_partition.begin(), later_partition.end() - 1, std::uint8_t(1)));
        std::uint32_t last_id = 0;
        bool any = false;
        ascending_ = true;
        for_each_listed([&](std::size_t i, std::uint32_t a, std::uint32_t b) {
            mark(a);
            mark(b);
            const std::uint32_t id = races.id(i);
            ascending_ &= !any || last_id < id;
            last_id = id;
            any = true;
        });
    }
    // f(race index, a's event number, b's event number) for every listed race in order, with a
    // word of listed_races_ read per 64 races.
    template <class F> void for_each_listed(F&& f) const {
        result_.races.for_each_run([&](std::uint32_t first_race, std::uint32_t a,
                                       const std::uint32_t* b, const std::uint32_t* b_end) {
            const std::size_t end = first_race + static_cast<std::size_t>(b_end - b);
            for (std::size_t w = first_race / 64; w * 64 < end; ++w) {
                std::uint64_t bits = listed_races_[w];
                if (w * 64 < first_race) bits &= ~std::uint64_t(0) << (first_race % 64);
                if ((w + 1) * 64 > end) bits &= ~(~std::uint64_t(0) << (end % 64));
                for (; bits != 0; bits &= bits - 1) {
                    const std::size_t i = w * 64 + static_cast<std::size_t>(std::countr_zero(bits));
                    f(i, a, b[i - first_race]);
                }
            }
        });
    }
    // Race i of result_.races, a run's races having event numbers a and b.
    Race race_at(std::size_t i, std::uint32_t a, std::uint32_t b) const {
        const RaceList& races = result_.races;
        Race r;
        r.id = races.id(i);
        r.a = races.events()[a];
        r.b = races.events()[b];
        r.partition = races.partition(i);
        r.status = races.status(i);
        if (races.actual(i)) r.actual = true;
        return r;
    }

    // Per event number of result_.races: its nodes in `index`, and its process's OS thread
    // (only when some process has one), so that the passes read neither EventRefs nor
    // processes per race.
    void number_facts(const SiteNodeIndex& index) {
        const std::vector<EventRef>& events = result_.races.events();
        // Node positions as 32 bits (8 bytes an event number, one load a race): an index past
        // that (32 GiB of nodes) takes the per-instance path.
        static_ = index.usable() && index.node_count() <= kNone;
        if (static_) {
            nodes_ = index.node_data();
            node_span_.reserve(events.size());
            for (const EventRef& e : events) {
                const auto [first, last] = index.nodes(e);
                node_span_.push_back({static_cast<std::uint32_t>(first - nodes_),
                                      static_cast<std::uint32_t>(last - nodes_)});
            }
        }
        const bool threads = std::any_of(trace_.processes.begin(), trace_.processes.end(),
                                         [](const Process& p) { return p.os_thread != kNone; });
        if (threads)
            for (const EventRef& e : events)
                os_thread_.push_back(trace_.processes[e.process].os_thread);
    }
    // SiteNodeIndex::static_instances of the race of event numbers a and b.
    bool static_instances(std::uint32_t a, std::uint32_t b) const {
        return static_ &&
               (os_thread_.empty() || os_thread_[a] == kNone || os_thread_[a] != os_thread_[b]);
    }

    std::uint32_t end_id(std::string_view file, std::uint32_t line, const SourceLocation* l) {
        auto [it, inserted] =
            end_ids_.try_emplace(EndKey{file, line}, static_cast<std::uint32_t>(ends_.size()));
        if (inserted)
            ends_.push_back(l ? SiteEnd{l->file, l->line, l->column, l->function} : SiteEnd{});
        return it->second;
    }

    // The (file, line) end of an access site: its headline frame (make_report_site).
    std::uint32_t site_end(std::uint32_t s) {
        if (s >= trace_.sites.size()) return end_id({}, 0, nullptr);
        std::uint32_t& e = end_of_site_[s];
        if (e != kNone) return e;
        const AccessSite& site = trace_.sites[s];
        if (site.location >= trace_.locations.size()) return e = end_id({}, 0, nullptr);
        const SourceLocation& l = trace_.locations[site_headline(trace_, site)];
        return e = end_id(l.file, l.line, &l);
    }

    // From the first range's lo to the last range's hi of an access site (its ranges are
    // sorted and disjoint); {0, 0} without ranges.
    Interval span(const AccessSite& site) const {
        if (site.range_count == 0) return {};
        return {trace_.ranges[site.first_range].lo,
                trace_.ranges[site.first_range + site.range_count - 1].hi};
    }

    // Bit u mod 64 for every byte (STD: variable) u of `span`, all of them from 64 on: spans
    // that meet share a bit.
    static std::uint64_t span_bits(const Interval& span) {
        const std::uint64_t length = span.hi - span.lo;
        if (span.hi <= span.lo) return 0;
        if (length >= 64) return ~std::uint64_t(0);
        return std::rotl((std::uint64_t(1) << length) - 1, static_cast<int>(span.lo % 64));
    }

    // Interns the shared bytes of an instance; its name is computed once per distinct set.
    std::uint32_t variable_id(const std::vector<Interval>& shared) {
        if (shared == last_shared_) return last_variable_;
        std::string key(reinterpret_cast<const char*>(shared.data()),
                        shared.size() * sizeof(Interval));
        auto [it, inserted] =
            variable_ids_.try_emplace(std::move(key), static_cast<std::uint32_t>(shared_.size()));
        if (inserted) shared_.push_back(shared);
        last_shared_ = shared;
        return last_variable_ = it->second;
    }

    // The ranked sites, each with its ends in site_end_less order, and the site of each end
    // pair (for pass 2).
    void orient(const SiteRankTable& table) {
        ranked_.reserve(table.size());
        for (const SiteRankTable::Site& site : table.sites()) {
            const bool swap = site_end_less(ends_[site.y], ends_[site.x]);
            ranked_.push_back({swap ? site.y : site.x, swap ? site.x : site.y, site.key});
        }
    }
    // The ranked site of the end pair {x, y}, kNone when there is none.
    std::uint32_t find_group(std::uint32_t x, std::uint32_t y) const { return table_->find(x, y); }

    // Calls f(access site of a, access site of b, shared bytes) for every race site instance of
    // `race` in (a, b) order, from the race's recomputed conflicts (RaceAccessFinder).
    template <class F> void slow_instances(const EventRef& a, const EventRef& b, F&& f) {
        const RaceAccesses& accesses = accesses_.of(a, b);
        for_each_conflicting_site_pair(
            trace_, accesses, scratch_,
            [&](std::uint32_t i, std::uint32_t j, const std::vector<Interval>& shared) {
                f(accesses.sites_a[i], accesses.sites_b[j], shared);
            });
    }

    // Pass 1: every race site of the listed races and the minima that rank it. In runs of
    // races with one a, a race read by column (partition, b's event number).
    void rank_all(const SiteNodeIndex& index, SiteRankTable& table) {
        std::optional<SiteRankFolder> folder;
        if (index.usable()) folder.emplace(index.segments(), ends_.size());
        const RaceList& races = result_.races;
        // The table may settle the sites seen so far whenever every later race site it is
        // given comes from a race with a larger id: the listed races come by ascending id
        // (ascending_), and no block of folded races is open (its join brings smaller races
        // than those ranked while it was open).
        const bool ascending = ascending_;
        std::uint32_t block = kNone;        // the event number of the open block's a
        SiteRankTable::EndFloor floor_of_a; // of the ends of its nodes
        auto join = [&] {
            if (block != kNone)
                folder->join(
                    [&](std::uint32_t x, std::uint32_t y, const SiteRankKey& k) {
                        table.add(x, y, k);
                    },
                    [&](std::uint32_t y, const SiteRankKey& k) { return table.may_change(y, k); });
            block = kNone;
        };
        for_each_listed([&](std::size_t i, std::uint32_t a, std::uint32_t b) {
            const bool first = in_first(i);
            const SiteRankKey key{races.id(i), races.partition(i), first};
            if (static_instances(a, b)) {
                // A block is the races of one a folded together: closed at the next
                // folded race of another a.
                if (block != kNone && block != a) {
                    join();
                    if (ascending) table.settle();
                }
                if (block == kNone) {
                    const auto [x, x_end] = nodes_of(a);
                    folder->begin(x, x_end);
                    block = a;
                    // The floors change only when the table settles, never in a block.
                    floor_of_a = SiteRankTable::EndFloor{};
                    for (const Node* n = x; n != x_end; ++n)
                        floor_of_a.add(table.floor(n->end()));
                }
                const auto [y, y_end] = nodes_of(b);
                // A race without recorded sites is an instance of the unknown pair. A
                // race that can change no race site of an end of a's nodes is not folded:
                // only whether it has an instance may matter.
                if (floor_of_a.may_change(key) ? !folder->fold(y, y_end, key)
                                               : !table.drops(unknown_end_, unknown_end_, key) &&
                                                     !folder->instance(y, y_end))
                    table.add(unknown_end_, unknown_end_, key);
            } else {
                bool any = false;
                slow_instances(races.events()[a], races.events()[b],
                               [&](std::uint32_t sa, std::uint32_t sb, const auto&) {
                                   table.add(end_of_site_[sa], end_of_site_[sb], key);
                                   any = true;
                               });
                if (!any) table.add(unknown_end_, unknown_end_, key);
            }
            if (ascending && block == kNone) table.settle();
        });
        join();
    }

    // The race sites shown (ranked_ numbers), in text-report order, at most `limit` of them
    // (the others only counted in `out`): with a limit, first-partition sites come first
    // (write_text_report's order); without one, the order of listed_race_sites(model).
    std::vector<std::uint32_t> listed_order(std::size_t limit, ListedRaceSites& out) {
        keys_.resize(ranked_.size());
        for (std::size_t k = 0; k < ranked_.size(); ++k)
            keys_[k] = site_key(ends_[ranked_[k].first_end], ends_[ranked_[k].second_end]);
        std::vector<std::uint32_t> order(ranked_.size());
        for (std::uint32_t k = 0; k < order.size(); ++k)
            order[k] = k;
        const bool limited = limit < ranked_.size();
        auto less = [&](std::uint32_t x, std::uint32_t y) {
            const SiteRankKey& a = ranked_[x].key;
            const SiteRankKey& b = ranked_[y].key;
            const bool later_a = limited && !a.in_first_partition;
            const bool later_b = limited && !b.in_first_partition;
            return std::tie(later_a, a.first_partition, a.smallest_race, keys_[x]) <
                   std::tie(later_b, b.first_partition, b.smallest_race, keys_[y]);
        };
        if (limited) {
            std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(limit),
                              order.end(), less);
            for (std::size_t k = limit; k < order.size(); ++k)
                out.unlisted_in_first += ranked_[order[k]].key.in_first_partition;
            out.unlisted_sites = order.size() - limit;
            order.resize(limit);
        } else {
            std::sort(order.begin(), order.end(), less);
        }
        return order;
    }

    // Pass 2: counts, threads, variables and the example of the race sites `order`.
    void detail_groups(const SiteNodeIndex& index, const std::vector<std::uint32_t>& order) {
        listed_ = order;
        place_.assign(ranked_.size(), kNone);
        for (std::uint32_t i = 0; i < order.size(); ++i)
            place_[order[i]] = i;
        groups_.assign(order.size(), Group{});
        const std::size_t pairs = order.size() * trace_.processes.size();
        process_bits_.assign(pairs <= kDenseProcessBits ? (pairs + 63) / 64 : 0, 0);
        // The ends of shown sites, numbered.
        std::vector<std::uint32_t> listed_end(ends_.size(), kNone);
        std::uint32_t listed_ends = 0;
        for (std::uint32_t g : order)
            for (std::uint32_t e : {ranked_[g].first_end, ranked_[g].second_end})
                if (listed_end[e] == kNone) listed_end[e] = listed_ends++;
        const std::uint32_t unknown_group = find_group(unknown_end_, unknown_end_);
        const bool unknown_listed = unknown_group != kNone && place_[unknown_group] != kNone;
        auto listed_group = [&](std::uint32_t x, std::uint32_t y) {
            const std::uint32_t g = find_group(x, y);
            return g == kNone ? kNone : place_[g];
        };
        // The data sites of each event whose end is a shown site's, in site order (once per
        // event, not per race): the site and its end << 2 | class (8 bytes: a race reads all of
        // its b's), and apart, the span of its ranges, so that the shown end pairs of a race
        // that share no byte are decided without reading the trace's ranges.
        struct Candidate {
            std::uint32_t site, end_class;
        };
        struct CandidateBytes {
            Interval span; // from its first range's lo to its last's hi
            bool one_range;
        };
        std::vector<Candidate> candidates;
        std::vector<CandidateBytes> candidate_bytes;
        std::vector<std::vector<std::size_t>> first_candidate(trace_.processes.size());
        for (std::size_t p = 0; p < trace_.processes.size(); ++p) {
            first_candidate[p].reserve(trace_.processes[p].events.size() + 1);
            for (std::size_t i = 0; i < trace_.processes[p].events.size(); ++i) {
                first_candidate[p].push_back(candidates.size());
                if (!racing_[p][i]) continue;
                const Event& e = trace_.processes[p].events[i];
                for (std::uint32_t s = e.first_site; s < e.first_site + e.site_count; ++s)
                    if (const AccessSite site = trace_.sites[s];
                        (site.flags & (kAccessRead | kAccessWrite)) &&
                        listed_end[end_of_site_[s]] != kNone) {
                        candidates.push_back({s, listed_end[end_of_site_[s]] << 2 |
                                                     SiteNodeIndex::site_class(site.flags)});
                        candidate_bytes.push_back({span(site), site.range_count == 1});
                    }
            }
            first_candidate[p].push_back(candidates.size());
        }
        // Per event number: its candidates, and a bit per (end, class) of a candidate (mod
        // 64), so that a race whose b has no candidate partnered with one of a is passed over
        // after one word is read (on waves, 99 % of the races have no shown race site, but most
        // pass this filter: what decides is whether the bytes meet, see partner_bytes).
        const RaceList& races = result_.races;
        auto end_class_bit = [](std::uint32_t end_class) {
            return std::uint64_t(1) << (end_class & 63u);
        };
        struct NumberCandidates {
            std::uint32_t first, last; // site ids are 32 bits, so are candidate positions
            std::uint64_t bits;
        };
        std::vector<NumberCandidates> candidates_of;
        candidates_of.reserve(races.events().size());
        for (const EventRef& e : races.events()) {
            const std::vector<std::size_t>& f = first_candidate[e.process];
            NumberCandidates n{static_cast<std::uint32_t>(f[e.index]),
                               static_cast<std::uint32_t>(f[e.index + 1]), 0};
            for (std::size_t k = n.first; k != n.last; ++k)
                n.bits |= end_class_bit(candidates[k].end_class);
            candidates_of.push_back(n);
        }
        first_candidate = {};
        // Per end of a shown site, the other ends of its shown sites and their places.
        std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> shown_with(listed_ends);
        for (std::uint32_t i = 0; i < order.size(); ++i) {
            const std::uint32_t x = listed_end[ranked_[order[i]].first_end];
            const std::uint32_t y = listed_end[ranked_[order[i]].second_end];
            shown_with[x].push_back({y, i});
            if (y != x) shown_with[y].push_back({x, i});
        }
        // Per block of races with the same event a: per shown end and class of a candidate of
        // b, the candidates of a (their position) that make a shown site with it, with a
        // compatible class, and its place. A race then looks up each candidate of its b once,
        // instead of pairing every candidate of a with every one of b.
        std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> partners(
            std::size_t(listed_ends) * 4);
        // Per end class of b: the span_bits of its partners, so that a candidate of b whose
        // bytes can meet none of them is passed over without reading them (waves: nearly all).
        std::vector<std::uint64_t> partner_bytes(std::size_t(listed_ends) * 4, 0);
        std::vector<std::uint32_t> partnered; // end classes with partners in this block
        std::uint64_t partnered_bits = 0;     // their end_class_bit
        std::uint32_t block = kNone;          // the event number of the block's a
        // A race's shown instances (candidate of a, candidate of b, place), taken in the order
        // of the candidates of a, then of b (which instance is the example depends on it).
        struct Hit {
            std::uint32_t x, y, group;
            bool operator<(const Hit& o) const { return std::tie(x, y) < std::tie(o.x, o.y); }
        };
        std::vector<Hit> hits;
        std::vector<Interval> shared;
        for_each_listed([&](std::size_t i, std::uint32_t a_number, std::uint32_t b_number) {
            const auto [a, a_end] = std::pair<std::size_t, std::size_t>{
                candidates_of[a_number].first, candidates_of[a_number].last};
            const bool first = in_first(i);
            if (static_instances(a_number, b_number)) {
                if (unknown_listed &&
                    !index.has_instance(races.events()[a_number], races.events()[b_number])) {
                    add(race_at(i, a_number, b_number), first, kNone, kNone, kNone,
                        place_[unknown_group]);
                    return;
                }
                if (a == a_end) return;
                if (a_number != block) {
                    block = a_number;
                    for (std::uint32_t y : partnered) {
                        partners[y].clear();
                        partner_bytes[y] = 0;
                    }
                    partnered.clear();
                    partnered_bits = 0;
                    for (std::size_t x = a; x != a_end; ++x)
                        for (const auto& [y, g] : shown_with[candidates[x].end_class >> 2])
                            for (std::uint32_t c = 0; c < 4; ++c)
                                if (SiteNodeIndex::compatible(candidates[x].end_class & 3u, c)) {
                                    std::vector<std::pair<std::uint32_t, std::uint32_t>>& to =
                                        partners[y << 2 | c];
                                    if (to.empty()) {
                                        partnered.push_back(y << 2 | c);
                                        partnered_bits |= end_class_bit(y << 2 | c);
                                    }
                                    to.push_back({static_cast<std::uint32_t>(x - a), g});
                                    partner_bytes[y << 2 | c] |= span_bits(candidate_bytes[x].span);
                                }
                }
                const NumberCandidates& bc = candidates_of[b_number];
                if ((bc.bits & partnered_bits) == 0) return; // no hit
                const std::size_t b = bc.first, b_last = bc.last;
                hits.clear();
                for (std::size_t y = b; y != b_last; ++y) {
                    const std::uint32_t end_class = candidates[y].end_class;
                    if ((partner_bytes[end_class] & span_bits(candidate_bytes[y].span)) == 0)
                        continue;
                    for (const auto& [x, g] : partners[end_class]) {
                        const Interval& sx = candidate_bytes[a + x].span;
                        const Interval& sy = candidate_bytes[y].span;
                        if (std::max(sx.lo, sy.lo) < std::min(sx.hi, sy.hi))
                            hits.push_back({x, static_cast<std::uint32_t>(y - b), g});
                    }
                }
                if (hits.empty()) return;
                if (hits.size() > 1) std::sort(hits.begin(), hits.end());
                const Race race = race_at(i, a_number, b_number);
                for (const Hit& h : hits) {
                    const CandidateBytes& x = candidate_bytes[a + h.x];
                    const CandidateBytes& y = candidate_bytes[b + h.y];
                    const std::uint32_t site_x = candidates[a + h.x].site;
                    const std::uint32_t site_y = candidates[b + h.y].site;
                    shared.clear();
                    if (x.one_range && y.one_range) {
                        shared.push_back(
                            {std::max(x.span.lo, y.span.lo), std::min(x.span.hi, y.span.hi)});
                    } else {
                        const AccessSite sx = trace_.sites[site_x];
                        const AccessSite sy = trace_.sites[site_y];
                        intersect_ranges(SiteRanges{trace_.ranges, sx.first_range}, sx.range_count,
                                         SiteRanges{trace_.ranges, sy.first_range}, sy.range_count,
                                         shared);
                    }
                    if (!shared.empty())
                        add(race, first, site_x, site_y, variable_id(shared), h.group);
                }
                return;
            }
            const Race race = race_at(i, a_number, b_number);
            bool any = false;
            slow_instances(
                race.a, race.b,
                [&](std::uint32_t sa, std::uint32_t sb, const std::vector<Interval>& bytes) {
                    any = true;
                    const std::uint32_t g = listed_group(end_of_site_[sa], end_of_site_[sb]);
                    if (g != kNone) add(race, first, sa, sb, variable_id(bytes), g);
                });
            if (!any && unknown_listed)
                add(race, first, kNone, kNone, kNone, place_[unknown_group]);
        });
    }

    // An instance (site_a of race.a, site_b of race.b) of the shown race site `group`.
    void add(const Race& race, bool first, std::uint32_t site_a, std::uint32_t site_b,
             std::uint32_t variable, std::uint32_t group) {
        Group& g = groups_[group];
        if (variable != kNone && variable != g.last_variable) {
            g.last_variable = variable;
            add_group_variable(std::uint64_t(group) << 32 | variable);
        }
        if (g.counted_race == race.id) return;
        g.counted_race = race.id;
        if (g.smallest_race == kNone) g.smallest_race = race.id; // races come by ascending id
        add_group_process(group, race.a.process);
        add_group_process(group, race.b.process);
        switch (race.status) {
        case RaceStatus::Feasible:
            ++g.feasible;
            break;
        case RaceStatus::FeasibleEc:
            ++g.feasible_ec;
            break;
        case RaceStatus::Unvalidated:
            ++g.unvalidated;
            break;
        }
        // The access pair shown is that of the strongest, then earliest, instance.
        if (g.smallest_race == race.id || race.status < g.example_status) {
            const std::uint32_t x = site_a == kNone ? unknown_end_ : end_of_site_[site_a];
            const std::uint32_t y = site_b == kNone ? unknown_end_ : end_of_site_[site_b];
            const RankedGroup& r = ranked_[listed_[group]];
            const bool swap = x != y && x != r.first_end;
            g.example_first = swap ? site_b : site_a;
            g.example_second = swap ? site_a : site_b;
            g.process_first = swap ? race.b.process : race.a.process;
            g.process_second = swap ? race.a.process : race.b.process;
            g.example_swapped = swap;
            g.example_race = race.id;
            g.example_status = race.status;
        }
        if (race.actual.value_or(false)) ++g.actual;
        if (first) g.in_first_partition = true;
        g.first_partition = std::min(g.first_partition, race.partition);
    }

    std::string process_name(std::uint32_t p) const {
        return p < trace_.processes.size() ? trace_.processes[p].name : std::string();
    }
    ReportSite access(std::uint32_t s) const {
        return s < trace_.sites.size() ? make_report_site(trace_, s) : ReportSite{};
    }

    // The example race of a group (races are numbered by their index).
    std::optional<Race> race_of(std::uint32_t id) const {
        if (id < result_.races.size() && result_.races[id].id == id) return result_.races[id];
        for (const Race& r : result_.races)
            if (r.id == id) return r;
        return std::nullopt;
    }

    // The shown race sites `order` in full.
    std::vector<RaceSite> finish(const std::vector<std::uint32_t>& order) {
        if (order.empty()) return {}; // no facts to compute (held locks of every event)
        // The facts shown for each example (locks held, thread creation, the race a later site
        // is ordered after), exactly as make_report_model gives them.
        const ReportEventFacts facts(trace_);
        std::optional<OrderingChains> chains;
        const MemoryNames& names = facts.names();
        variable_names_.reserve(shared_.size());
        for (const std::vector<Interval>& shared : shared_)
            variable_names_.push_back(shared_variable_name(trace_, names, shared));
        std::vector<RaceSite> sites(order.size());
        for (std::size_t i = 0; i < order.size(); ++i) {
            const Group& g = groups_[i];
            const RankedGroup& r = ranked_[order[i]];
            RaceSite& s = sites[i];
            s.first = ends_[r.first_end];
            s.second = ends_[r.second_end];
            s.key = std::move(keys_[order[i]]);
            s.access_first = access(g.example_first);
            s.access_second = access(g.example_second);
            s.thread_first = process_name(g.process_first);
            s.thread_second = process_name(g.process_second);
            s.example_race = g.example_race;
            s.example_status = g.example_status;
            if (const std::optional<Race> race = race_of(g.example_race)) {
                s.event_first = facts.event(g.example_swapped ? race->b : race->a);
                s.event_second = facts.event(g.example_swapped ? race->a : race->b);
                if (!in_first(*race)) {
                    if (!chains) chains.emplace(trace_, result_);
                    if (auto after = chains->of(race->id)) {
                        ReportOrderedAfter o;
                        o.race = after->race;
                        for (const OrderingStep& step : after->chain)
                            o.chain.push_back(facts.step(step.event, to_string(step.via)));
                        s.example_ordered_after = std::move(o);
                    }
                }
            }
            s.races = {g.smallest_race};
            s.runs.insert(0);
            s.feasible = g.feasible;
            s.feasible_ec = g.feasible_ec;
            s.unvalidated = g.unvalidated;
            s.actual = g.actual;
            s.in_first_partition = g.in_first_partition;
            s.first_partition = g.first_partition;
        }
        if (!process_bits_.empty()) {
            const std::size_t processes = trace_.processes.size();
            for (std::size_t w = 0; w < process_bits_.size(); ++w)
                for (std::uint64_t bits = process_bits_[w]; bits != 0; bits &= bits - 1) {
                    const std::size_t k = 64 * w + static_cast<std::size_t>(std::countr_zero(bits));
                    sites[k / processes].threads.insert(
                        process_name(static_cast<std::uint32_t>(k % processes)));
                }
        }
        compact(group_processes_);
        for (std::uint64_t gp : group_processes_)
            sites[gp >> 32].threads.insert(process_name(gp & 0xffffffffu));
        compact_group_variables();
        for (std::uint64_t gv : group_variables_) {
            const std::string& name = variable_names_[gv & 0xffffffffu];
            if (!name.empty()) sites[gv >> 32].variables.insert(name);
        }
        return sites;
    }

    // (group, variable) pairs: a vector sorted and deduplicated whenever it doubled, 8 bytes
    // per distinct pair instead of a hash node each (with many threads and variables there are
    // millions of pairs, issue 14).
    void add_group_variable(std::uint64_t gv) {
        group_variables_.push_back(gv);
        if (group_variables_.size() >= 2 * compacted_size_ + 1024) compact_group_variables();
    }
    void compact_group_variables() { compacted_size_ = compact(group_variables_); }
    // (group, process) pairs: a bit each when the shown sites times the processes fit
    // kDenseProcessBits (each race adds two pairs, nearly all there already: sorting them took
    // a quarter of the text report on one hot variable), else the same way as the variables (a
    // race site of many short-lived threads, 250 000 of them, must not search its list of
    // threads for each race).
    static constexpr std::size_t kDenseProcessBits = std::size_t(1) << 26;
    void add_group_process(std::uint32_t group, std::uint32_t process) {
        if (!process_bits_.empty()) {
            const std::size_t k = std::size_t(group) * trace_.processes.size() + process;
            process_bits_[k / 64] |= std::uint64_t(1) << (k % 64);
            return;
        }
        group_processes_.push_back(std::uint64_t(group) << 32 | process);
        if (group_processes_.size() >= 2 * compacted_processes_ + 1024)
            compacted_processes_ = compact(group_processes_);
    }
    static std::size_t compact(std::vector<std::uint64_t>& pairs) {
        std::sort(pairs.begin(), pairs.end());
        pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
        return pairs.size();
    }

    const Trace& trace_;
    const AnalysisResult& result_;
    RaceAccessFinder accesses_;
    ConflictScratch scratch_;
    std::unordered_map<EndKey, std::uint32_t, EndKeyHash> end_ids_;
    std::vector<SiteEnd> ends_;
    std::vector<std::uint32_t> end_of_site_; // per access site of a racing event
    std::vector<std::vector<bool>> racing_;  // per process and event: in a listed race
    using Node = SiteNodeIndex::Node;
    bool static_ = false; // SiteNodeIndex::usable
    // Per event number of the races: its nodes in the index, as positions from nodes_.
    struct NodeSpan {
        std::uint32_t first, last;
    };
    const Node* nodes_ = nullptr;
    std::vector<NodeSpan> node_span_;
    std::pair<const Node*, const Node*> nodes_of(std::uint32_t number) const {
        const NodeSpan span = node_span_[number];
        return {nodes_ + span.first, nodes_ + span.last};
    }
    std::vector<std::uint32_t> os_thread_;      // per event number, when some process has one
    std::vector<std::uint8_t> first_partition_; // per partition: first
    std::vector<std::uint64_t> listed_races_;   // a bit per race: listed (select_listed)
    bool ascending_ = true;                     // the listed races' ids ascend
    std::uint32_t unknown_end_ = 0;
    std::unordered_map<std::string, std::uint32_t> variable_ids_;
    std::vector<std::vector<Interval>> shared_;
    std::vector<std::string> variable_names_; // per shared_ entry
    std::vector<Interval> last_shared_;
    std::uint32_t last_variable_ = kNone;
    std::optional<SiteRankTable> table_; // pass 1's race sites
    std::vector<RankedGroup> ranked_;
    std::vector<std::string> keys_;              // per ranked_ entry: site_key
    std::vector<std::uint32_t> place_;           // per ranked_ entry: its place among the shown
    std::vector<std::uint32_t> listed_;          // per shown place: its ranked_ entry
    std::vector<Group> groups_;                  // per shown place
    std::vector<std::uint64_t> group_variables_; // (shown place, variable)
    std::size_t compacted_size_ = 0;
    std::vector<std::uint64_t> process_bits_;    // per (shown place, process): dense
    std::vector<std::uint64_t> group_processes_; // (shown place, process) otherwise
    std::size_t compacted_processes_ = 0;
};

} // namespace

ListedRaceSites listed_race_sites(const Trace& trace, const AnalysisResult& result,
                                  std::size_t limit) {
    return ListedSiteGrouping(trace, result).run(limit);
}

} // namespace firstrace
