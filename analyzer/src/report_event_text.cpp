// One-line texts of the facts reports show about the events of a race (locks held, thread
// creation) and about the chain of events ordering a race after another (issue 12).
#include <string>

#include "firstrace/triage_report.hpp"

namespace firstrace {

std::string stack_headline_text(const ReportStack& stack) {
    if (!stack.known()) return "<unknown>";
    const ReportFrame& h = stack.headline;
    const std::string where = location_key(h.file, h.line);
    // C++ signatures run to hundreds of characters; JSON and the database keep them whole.
    constexpr std::size_t kMaxFunction = 60;
    const std::string function = h.function.size() <= kMaxFunction
                                     ? h.function
                                     : h.function.substr(0, kMaxFunction - 1) + "…";
    return function.empty() ? where : function + " " + where;
}

std::string held_locks_text(const ReportEvent& event) {
    std::string out;
    for (const ReportHeldLock& lock : event.locks) {
        out += out.empty() ? "" : ", ";
        out += lock.name;
        if (lock.acquired.known()) out += " (locked at " + stack_headline_text(lock.acquired) + ")";
    }
    return out;
}

std::string creation_text(const ReportEvent& event) {
    if (event.parent.empty()) return {};
    std::string out = event.thread + " created by " + event.parent;
    if (event.created.known()) out += " at " + stack_headline_text(event.created);
    return out;
}

std::string ordering_text(const ReportOrderedAfter& after, std::size_t max_steps) {
    // The chain is one path from each event of the earlier race to one event of this race.
    std::string out = "race #" + std::to_string(after.race);
    if (!after.chain.empty()) {
        const ReportOrderingStep& end = after.chain.back();
        out += " (both its events reach " + end.thread + " #" + std::to_string(end.index) + ")";
    }
    std::size_t n = 0;
    for (std::size_t i = 0; i < after.chain.size(); ++i) {
        const ReportOrderingStep& step = after.chain[i];
        if (step.via == "start") {
            out += n == 0 ? ": " : "; ";
            n = 0;
        } else if (n == max_steps) {
            std::size_t rest = 0;
            while (i + rest < after.chain.size() && after.chain[i + rest].via != "start")
                ++rest;
            out += " → … " + std::to_string(rest) + " more";
            i += rest - 1;
            continue;
        } else {
            std::string via = step.via;
            for (char& c : via)
                if (c == '-') c = ' ';
            out += " → (" + via + ") ";
        }
        ++n;
        out += step.thread + " #" + std::to_string(step.index) + " ";
        out += step.kind == "computation" ? std::string("access") : step.kind;
        if (!step.object.empty()) out += " " + step.object;
        if (step.at.known()) out += " at " + stack_headline_text(step.at);
    }
    return out;
}

} // namespace firstrace
