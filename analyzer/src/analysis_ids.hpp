// Strong id types of the analysis stages (after heaptrack's indices.h): a race id and a
// partition id are both dense uint32_t numbers, and a bare integer let one be used for the
// other in a single expression. An Id<Tag> converts from and to its integer only explicitly
// (`RaceId{x}`, `id.value`), indexes an IdVector<Id, T> and no other vector, and never
// compares with an id of another kind. The public AnalysisResult keeps plain uint32_t fields
// (every reader, writer and report reads them); the stages convert at their boundary.
#pragma once

#include <compare>
#include <cstdint>
#include <functional>
#include <limits>
#include <vector>

namespace firstrace {

template <class Tag> struct Id {
    std::uint32_t value = std::numeric_limits<std::uint32_t>::max();

    constexpr Id() = default;
    constexpr explicit Id(std::uint32_t v) : value(v) {}
    // "No such id" (kNone of the plain numbers).
    static constexpr Id none() { return Id(); }
    constexpr bool valid() const { return value != std::numeric_limits<std::uint32_t>::max(); }

    friend constexpr bool operator==(Id, Id) = default;
    friend constexpr auto operator<=>(Id, Id) = default;
};

// A vector indexed by one kind of id only.
template <class IdType, class T> class IdVector {
  public:
    IdVector() = default;
    explicit IdVector(std::size_t n, const T& value = T()) : items_(n, value) {}

    T& operator[](IdType id) { return items_[id.value]; }
    const T& operator[](IdType id) const { return items_[id.value]; }
    std::size_t size() const { return items_.size(); }
    IdType next_id() const { return IdType(static_cast<std::uint32_t>(items_.size())); }
    void push_back(T value) { items_.push_back(std::move(value)); }
    template <class... Args> T& emplace_back(Args&&... args) {
        return items_.emplace_back(std::forward<Args>(args)...);
    }
    auto begin() { return items_.begin(); }
    auto end() { return items_.end(); }
    auto begin() const { return items_.begin(); }
    auto end() const { return items_.end(); }

  private:
    std::vector<T> items_;
};

// An apparent race: index into the stages' race list and AnalysisResult::races.
using RaceId = Id<struct RaceTag>;
// A partition of the race ordering (Def 8.2), numbered by the ordering stage.
using PartitionId = Id<struct PartitionTag>;
// A strongly connected component of some graph (Components::of).
using ComponentId = Id<struct ComponentTag>;

// Every id of a kind below `count`, for range-for.
template <class IdType> struct IdRange {
    std::uint32_t count = 0;
    struct Iterator {
        std::uint32_t v;
        IdType operator*() const { return IdType(v); }
        Iterator& operator++() {
            ++v;
            return *this;
        }
        bool operator!=(const Iterator& o) const { return v != o.v; }
    };
    Iterator begin() const { return {0}; }
    Iterator end() const { return {count}; }
};
template <class IdType> IdRange<IdType> ids(std::size_t count) {
    return {static_cast<std::uint32_t>(count)};
}

} // namespace firstrace

template <class Tag> struct std::hash<firstrace::Id<Tag>> {
    std::size_t operator()(firstrace::Id<Tag> id) const noexcept {
        return std::hash<std::uint32_t>()(id.value);
    }
};
