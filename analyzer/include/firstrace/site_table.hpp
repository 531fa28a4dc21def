// Trace::sites: the access sites of all computation events, 8 bytes a site instead of 20
// (DESIGN-NOTES "Compact sites and ranges").
//
// What a site is apart from its ranges — location, calling context, access kind — repeats
// across events (SQLite's create_drop_index_1: 10^8 sites, few distinct such triples), so a
// site stores the index of its triple (an AccessPoint, interned) and where its ranges start.
// Sites are stored in the order of their ranges: a site's ranges end where the next site's
// start (the last one's at range_end()), so no count is stored either. Consumers read a site
// as the AccessSite it stands for, by value.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

#include "firstrace/mapped_array.hpp"

namespace firstrace {

// All accesses one program location made inside one computation event: the kind and the
// sorted, disjoint byte ranges it touched.
struct AccessSite {
    std::uint32_t location = std::numeric_limits<std::uint32_t>::max(); // Trace::locations
    std::uint8_t flags = 0;                                             // AccessFlags
    std::uint32_t first_range = 0;                                      // index into Trace::ranges
    std::uint32_t range_count = 0;
    // The calling context the accesses were made in (index into Trace::contexts: the innermost
    // caller frame), kNone when not recorded. Sites of one pc under different stacks are
    // different sites.
    std::uint32_t context = std::numeric_limits<std::uint32_t>::max();
    friend bool operator==(const AccessSite&, const AccessSite&) = default;
};

// A site without its ranges.
struct AccessPoint {
    std::uint32_t location = 0;
    std::uint32_t context = 0;
    std::uint8_t flags = 0;
    friend bool operator==(const AccessPoint&, const AccessPoint&) = default;
};

// The distinct access points, each stored once: an open-addressing table of point indices.
class AccessPoints {
  public:
    std::size_t size() const { return points_.size(); }
    const AccessPoint& operator[](std::uint32_t i) const { return points_[i]; }
    // The index of `point`, added when new.
    std::uint32_t intern(const AccessPoint& point) {
        if (2 * (points_.size() + 1) > slots_.size()) grow();
        const std::size_t mask = slots_.size() - 1;
        for (std::size_t i = hash(point) & mask;; i = (i + 1) & mask) {
            if (slots_[i] == kEmpty) {
                slots_[i] = static_cast<std::uint32_t>(points_.size());
                points_.push_back(point);
                return slots_[i];
            }
            if (points_[slots_[i]] == point) return slots_[i];
        }
    }
    std::size_t bytes() const {
        return points_.capacity() * sizeof(AccessPoint) + slots_.capacity() * sizeof(std::uint32_t);
    }

  private:
    static constexpr std::uint32_t kEmpty = std::numeric_limits<std::uint32_t>::max();
    // splitmix64's finalizer: every key bit reaches the low bits the table uses (contexts are
    // often kNone, locations small: a plain multiplication left long probe runs).
    static std::size_t hash(const AccessPoint& p) {
        std::uint64_t h = (std::uint64_t{p.location} << 32 | p.context) ^ std::uint64_t{p.flags}
                                                                              << 61;
        h ^= h >> 30;
        h *= 0xbf58476d1ce4e5b9ull;
        h ^= h >> 27;
        h *= 0x94d049bb133111ebull;
        h ^= h >> 31;
        return static_cast<std::size_t>(h);
    }
    void grow() {
        std::vector<std::uint32_t>(slots_.empty() ? 64 : 2 * slots_.size(), kEmpty).swap(slots_);
        const std::size_t mask = slots_.size() - 1;
        for (std::uint32_t p = 0; p < points_.size(); ++p) {
            std::size_t i = hash(points_[p]) & mask;
            while (slots_[i] != kEmpty)
                i = (i + 1) & mask;
            slots_[i] = p;
        }
    }

    std::vector<AccessPoint> points_;
    std::vector<std::uint32_t> slots_;
};

// One stored site: its point and where its ranges start.
struct SiteRecord {
    std::uint32_t point = 0;
    std::uint32_t first_range = 0;
};

// `Records` is MappedArray<SiteRecord> for the model, which the reader fills and moves to it
// (mapped_array.hpp).
template <class Records> class BasicSiteTable {
  public:
    BasicSiteTable() = default;
    BasicSiteTable(std::initializer_list<AccessSite> sites) {
        for (const AccessSite& site : sites)
            push_back(site);
    }

    std::size_t size() const { return records_.size(); }
    bool empty() const { return records_.size() == 0; }
    AccessSite operator[](std::size_t s) const {
        const SiteRecord& record = records_[s];
        const AccessPoint& point = points_[record.point];
        const std::uint32_t end =
            s + 1 < records_.size() ? records_[s + 1].first_range : range_end_;
        return {point.location, point.flags, record.first_range, end - record.first_range,
                point.context};
    }
    // Appends a site; its ranges must follow the previous site's (site.first_range ==
    // range_end()).
    void push_back(const AccessSite& site) {
        push_back(intern({site.location, site.context, site.flags}), site.first_range,
                  site.range_count);
    }
    // The same for a site whose point is known (intern): the reader skips the lookup for a
    // site that repeats one of the previous event's.
    std::uint32_t intern(const AccessPoint& point) { return points_.intern(point); }
    void push_back(std::uint32_t point, std::uint32_t first_range, std::uint32_t range_count) {
        if (first_range != range_end_)
            throw std::invalid_argument("an access site's ranges must follow the previous site's");
        records_.push_back({point, first_range});
        range_end_ = first_range + range_count;
    }
    // Rewrites site s's location, context and flags; its ranges stay where they are (the
    // first range and count of `site` must be the stored ones).
    void set(std::size_t s, const AccessSite& site) {
        const AccessSite stored = (*this)[s];
        if (site.first_range != stored.first_range || site.range_count != stored.range_count)
            throw std::invalid_argument("an access site's ranges cannot be moved in place");
        records_[s].point = points_.intern({site.location, site.context, site.flags});
    }
    // Keeps the first n sites (n <= size()).
    void truncate(std::size_t n) {
        if (n >= records_.size()) return;
        range_end_ = records_[n].first_range;
        if constexpr (requires { records_.truncate(n); })
            records_.truncate(n);
        else
            records_.resize(n);
    }
    // Where site s's ranges start, and how many it has (operator[] without the point).
    std::uint32_t first_range(std::size_t s) const { return records_[s].first_range; }
    std::uint32_t range_count(std::size_t s) const {
        return (s + 1 < records_.size() ? records_[s + 1].first_range : range_end_) -
               records_[s].first_range;
    }
    // Where the last site's ranges end.
    std::uint32_t range_end() const { return range_end_; }
    // For a pass that rewrites the range array in site order: site s's ranges now start at
    // `first` (non-decreasing in s), and the last site's end at `end`.
    void set_first_range(std::size_t s, std::uint32_t first) { records_[s].first_range = first; }
    void set_range_end(std::uint32_t end) { range_end_ = end; }

    void reserve(std::size_t n) { records_.reserve(n); }
    void shrink_to_fit() { records_.shrink_to_fit(); }
    const AccessPoints& points() const { return points_; }
    std::size_t bytes() const { return records_.size() * sizeof(SiteRecord) + points_.bytes(); }

    // Moves every site to `out`, which must be empty, leaving this table empty (the reader's
    // chunked store into the model's vector).
    template <class Out> void move_to(BasicSiteTable<Out>& out) {
        out.truncate(0);
        if constexpr (std::is_same_v<Records, Out>) {
            out.records_ = std::move(records_);
            records_ = Records();
        } else {
            records_.move_to(out.records_);
        }
        out.points_ = std::move(points_);
        out.range_end_ = range_end_;
        points_ = AccessPoints();
        range_end_ = 0;
    }

  private:
    template <class> friend class BasicSiteTable;

    Records records_;
    AccessPoints points_;
    std::uint32_t range_end_ = 0;
};

using SiteTable = BasicSiteTable<MappedArray<SiteRecord>>;

} // namespace firstrace
