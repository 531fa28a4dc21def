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
#include <utility>
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
    explicit IdVector(std::vector<T> items) : items_(std::move(items)) {}

    // std::vector's reference types, so that IdVector<Id, bool> works as std::vector<bool> does.
    typename std::vector<T>::reference operator[](IdType id) { return items_[id.value]; }
    typename std::vector<T>::const_reference operator[](IdType id) const {
        return items_[id.value];
    }
    std::size_t size() const { return items_.size(); }
    bool empty() const { return items_.empty(); }
    void assign(std::size_t n, const T& value) { items_.assign(n, value); }
    void resize(std::size_t n, const T& value = T()) { items_.resize(n, value); }
    void reserve(std::size_t n) { items_.reserve(n); }
    void clear() { items_.clear(); }
    const T& back() const { return items_.back(); }
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

// The ids of the temporal ordering graph G (temporal_graph.hpp): an event of any process
// (dense over all processes), a node of G (a computation event has two, a synchronization event
// one, a barrier episode one virtual node), a logical process (the model's process index), and
// a timestamp slot (a chain of processes ordered in G sharing one vector-timestamp entry).
using EventId = Id<struct EventTag>;
using NodeId = Id<struct NodeTag>;
using ProcessId = Id<struct ProcessTag>;
using SlotId = Id<struct SlotTag>;

// An apparent race: index into the stages' race list and AnalysisResult::races.
using RaceId = Id<struct RaceTag>;
// A partition of the race ordering (Def 8.2), numbered by the ordering stage.
using PartitionId = Id<struct PartitionTag>;
// A strongly connected component of some graph (Components::of).
using ComponentId = Id<struct ComponentTag>;

// The ids of a kind in [first, last), for range-for.
template <class IdType> struct IdRange {
    std::uint32_t first = 0;
    std::uint32_t last = 0;
    struct Iterator {
        std::uint32_t v;
        IdType operator*() const { return IdType(v); }
        Iterator& operator++() {
            ++v;
            return *this;
        }
        bool operator!=(const Iterator& o) const { return v != o.v; }
    };
    Iterator begin() const { return {first}; }
    Iterator end() const { return {last}; }
    std::uint32_t size() const { return last - first; }
    bool empty() const { return first == last; }
};
// Every id of a kind below `count`.
template <class IdType> IdRange<IdType> ids(std::size_t count) {
    return {0, static_cast<std::uint32_t>(count)};
}
// The ids from `first` up to, not including, `last`.
template <class IdType> IdRange<IdType> id_range(IdType first, IdType last) {
    return {first.value, last.value};
}

} // namespace firstrace

template <class Tag> struct std::hash<firstrace::Id<Tag>> {
    std::size_t operator()(firstrace::Id<Tag> id) const noexcept {
        return std::hash<std::uint32_t>()(id.value);
    }
};
