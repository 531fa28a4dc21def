#include "firstrace/race_list.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace firstrace {

RaceList::RaceList(std::initializer_list<Race> races) {
    reserve(races.size());
    for (const Race& r : races)
        push_back(r);
}

RaceList& RaceList::operator=(std::initializer_list<Race> races) {
    return *this = RaceList(races);
}

RaceList::RaceList(Columns columns)
    : events_(std::move(columns.events)), a_begin_(std::move(columns.a_begin)),
      a_event_(std::move(columns.a_event)), b_event_(std::move(columns.b_event)),
      status_(std::move(columns.status)), partition_(std::move(columns.partition)),
      tangle_(std::move(columns.tangle)), actual_(std::move(columns.actual)) {
    const std::size_t n = b_event_.size();
    const bool runs_fit = a_begin_.size() == a_event_.size() &&
                          (n == 0 ? a_begin_.empty() : !a_begin_.empty() && a_begin_[0] == 0) &&
                          std::is_sorted(a_begin_.begin(), a_begin_.end());
    if (!runs_fit || status_.size() != n || partition_.size() != n ||
        !(tangle_.empty() || tangle_.size() == n) || !(actual_.empty() || actual_.size() == n))
        throw std::invalid_argument("RaceList: columns of " + std::to_string(n) +
                                    " races do not fit together");
}

void RaceList::reserve(std::size_t n) {
    b_event_.reserve(n);
    status_.reserve(n);
    partition_.reserve(n);
}

std::uint32_t RaceList::event_number(const EventRef& e) {
    if (number_of_.size() != events_.size()) { // built from columns: index their events once
        number_of_.clear();
        for (std::uint32_t i = 0; i < events_.size(); ++i)
            number_of_.emplace((std::uint64_t(events_[i].process) << 32) | events_[i].index, i);
    }
    const auto [it, added] = number_of_.emplace((std::uint64_t(e.process) << 32) | e.index,
                                                static_cast<std::uint32_t>(events_.size()));
    if (added) events_.push_back(e);
    return it->second;
}

void RaceList::push_back(const Race& race) {
    const std::size_t i = size();
    const std::uint32_t a = event_number(race.a);
    if (a_event_.empty() || a_event_.back() != a) {
        a_begin_.push_back(static_cast<std::uint32_t>(i));
        a_event_.push_back(a);
    }
    b_event_.push_back(event_number(race.b));
    status_.push_back(race.status);
    partition_.push_back(race.partition);
    // An optional column holds every race once one needs it (its size is then i here).
    auto column = [i](auto& c, bool needed, auto absent, auto value) {
        const bool held = i > 0 && c.size() == i;
        if (!held && !needed) return;
        if (!held)
            for (std::uint32_t k = 0; k < i; ++k)
                c.push_back(absent(k));
        c.push_back(value);
    };
    column(
        id_, race.id != i, [](std::uint32_t k) { return k; }, race.id);
    column(
        tangle_, race.tangle.has_value(), [](std::uint32_t) { return kNone; },
        race.tangle.value_or(kNone));
    column(
        actual_, race.actual.has_value(), [](std::uint32_t) { return std::uint8_t(0); },
        std::uint8_t(race.actual ? (*race.actual ? 2 : 1) : 0));
}

std::size_t RaceList::run_of(std::size_t i) const {
    const auto after = std::upper_bound(a_begin_.begin(), a_begin_.end(), i);
    return after == a_begin_.begin() ? 0 : std::size_t(after - a_begin_.begin()) - 1;
}

} // namespace firstrace
