// Shared access-site runs: a computation event whose sites and ranges equal those of a recent
// event points at that event's run of Trace::sites instead of a copy of it.
//
// Sync-heavy programs repeat one short computation event between every pair of
// synchronization operations: compiler-rt's deadlock_detector_stress_test has 7·10^6
// computation events of four one-range sites each, all copies of two lists (the lock and the
// unlock wrapper), 144 bytes per event or 1 GiB of its 3.8 GiB peak. An event's sites are the
// run [first_site, first_site + site_count), read-only after the reader; a shared run is the
// same accesses at the same locations, so every consumer that looks at an event's accesses
// sees exactly what a copy would show. The one place that treats a site as belonging to one
// event is the results database (access_sites rows name their event): its writer gives each
// further event of a shared run rows of its own (results_database_writer.cpp).
//
// Candidates are the runs seen last per hash bucket (a direct-mapped table of fixed size), so
// the memory is bounded whatever the trace, and a trace without repeats only pays a hash per
// event. Equality is checked field by field: a hash collision never shares different runs.
#pragma once

#include <cstdint>
#include <vector>

#include "firstrace/model.hpp"
#include "flat_id_map.hpp"

namespace firstrace {

class SiteRuns {
  public:
    // The sites [first, trace.sites.size()) with their ranges, the last ones read: the first
    // site of an equal earlier run (now shared), or kNone (then the new run is remembered).
    // `Sites` is the Trace or the reader's store of sites and ranges (members `sites` and
    // `ranges` indexed as Trace's are).
    template <class Sites> std::uint32_t find_equal(const Sites& trace, std::uint32_t first) {
        const auto count = static_cast<std::uint32_t>(trace.sites.size()) - first;
        if (count == 0) return kNone;
        const std::uint64_t hash = hash_run(trace, first, count);
        if (table_.empty()) table_.assign(kBuckets, Candidate{});
        Candidate& c = table_[(hash * 0x9e3779b97f4a7c15ull) >> (64 - kBucketBits)];
        if (c.first != kNone && c.hash == hash && c.count == count &&
            equal_runs(trace, c.first, first, count)) {
            shared_.assign(c.first, 1);
            return c.first;
        }
        c = {hash, first, count};
        return kNone;
    }

    // Whether more than one event has pointed at the run starting at `first`.
    bool shared(std::uint32_t first) const { return shared_.find(first) != FlatIdMap::kAbsent; }

  private:
    static constexpr unsigned kBucketBits = 12;
    static constexpr std::size_t kBuckets = std::size_t{1} << kBucketBits;
    struct Candidate {
        std::uint64_t hash = 0;
        std::uint32_t first = kNone;
        std::uint32_t count = 0;
    };

    static std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
        return (h ^ v) * 0x100000001b3ull + (h >> 29);
    }
    template <class Sites>
    static std::uint64_t hash_run(const Sites& trace, std::uint32_t first, std::uint32_t count) {
        std::uint64_t h = 0xcbf29ce484222325ull;
        for (std::uint32_t s = first; s < first + count; ++s) {
            const AccessSite& site = trace.sites[s];
            h = mix(h, (std::uint64_t{site.location} << 32) | site.context);
            h = mix(h, (std::uint64_t{site.flags} << 32) | site.range_count);
            for (std::uint32_t r = site.first_range; r < site.first_range + site.range_count; ++r) {
                h = mix(h, trace.ranges[r].lo);
                h = mix(h, trace.ranges[r].hi);
            }
        }
        return h;
    }
    template <class Sites>
    static bool equal_runs(const Sites& trace, std::uint32_t a, std::uint32_t b,
                           std::uint32_t count) {
        for (std::uint32_t k = 0; k < count; ++k) {
            const AccessSite& x = trace.sites[a + k];
            const AccessSite& y = trace.sites[b + k];
            if (x.location != y.location || x.context != y.context || x.flags != y.flags ||
                x.range_count != y.range_count)
                return false;
            for (std::uint32_t r = 0; r < x.range_count; ++r)
                if (!(trace.ranges[x.first_range + r] == trace.ranges[y.first_range + r]))
                    return false;
        }
        return true;
    }

    std::vector<Candidate> table_;
    FlatIdMap shared_; // first site of each shared run -> 1
};

} // namespace firstrace
