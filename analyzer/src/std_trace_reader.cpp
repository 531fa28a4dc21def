// RAPID's STD text format: one operation per line, `THREAD|OP(ARG)|LOCATION`, in the order
// they happened (the complete ordering). A maximal run of r/w lines of one thread between its
// synchronization lines is one computation event.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "firstrace/errors.hpp"
#include "firstrace/trace_loader.hpp"
#include "input_file.hpp"

namespace firstrace {
namespace {

struct PendingAccess {
    std::uint32_t location;
    std::uint8_t flags;
    std::uint64_t variable;
    bool operator<(const PendingAccess& o) const {
        if (location != o.location) return location < o.location;
        if (flags != o.flags) return flags < o.flags;
        return variable < o.variable;
    }
};

struct ThreadState {
    bool started = false; // has performed an operation
    bool forked = false;
    std::uint64_t joined_at = 0;     // line of the join, 0 when not joined
    std::vector<PendingAccess> open; // accesses of the open computation event
    std::uint64_t open_start = 0;
    std::uint64_t open_finish = 0;
};

struct LockState {
    std::uint32_t holder = kNone;
    std::uint32_t depth = 0;
    std::uint64_t acquired_at = 0;
    std::uint64_t counter = 0;
};

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() &&
           (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n'))
        s.remove_suffix(1);
    return s;
}

class StdTraceParser {
  public:
    explicit StdTraceParser(std::string path) {
        trace_.path = std::move(path);
        trace_.format = "std";
    }

    void parse_line(std::string_view line, std::uint64_t number) {
        line_ = number;
        line = trim(line);
        if (line.empty() || line.front() == '#') return;
        const auto bar1 = line.find('|');
        if (bar1 == std::string_view::npos)
            fail("malformed line (expected THREAD|OP(ARG)|LOCATION)");
        const std::string_view thread = trim(line.substr(0, bar1));
        std::string_view rest = line.substr(bar1 + 1);
        const auto bar2 = rest.find('|');
        const std::string_view op_field =
            trim(bar2 == std::string_view::npos ? rest : rest.substr(0, bar2));
        const std::string_view loc_field =
            bar2 == std::string_view::npos ? std::string_view{} : trim(rest.substr(bar2 + 1));
        if (thread.empty()) fail("malformed line: empty thread name");
        const auto open = op_field.find('(');
        if (open == std::string_view::npos || op_field.empty() || op_field.back() != ')' ||
            open == 0)
            fail("malformed operation '" + std::string(op_field) + "' (expected OP(ARG))");
        const std::string_view op = trim(op_field.substr(0, open));
        const std::string_view arg = trim(op_field.substr(open + 1, op_field.size() - open - 2));
        if (arg.empty())
            fail("malformed operation '" + std::string(op_field) + "': empty argument");

        if (op == "begin" || op == "end") return; // RAPID's atomic-block markers: not modelled
        const bool known =
            op == "r" || op == "w" || op == "acq" || op == "rel" || op == "fork" || op == "join";
        if (!known)
            fail("unknown operation '" + std::string(op) +
                 "' (expected r, w, acq, rel, fork, join)");
        const std::uint32_t t = process(thread);
        if (threads_[t].joined_at != 0)
            fail("thread " + std::string(thread) + " performs '" + std::string(op) +
                 "' after it was joined at line " + std::to_string(threads_[t].joined_at));
        threads_[t].started = true;
        const std::uint32_t loc = location(loc_field);

        if (op == "r" || op == "w") {
            ThreadState& ts = threads_[t];
            if (ts.open.empty()) ts.open_start = number;
            ts.open_finish = number;
            ts.open.push_back({loc,
                               static_cast<std::uint8_t>(op == "r" ? kAccessRead : kAccessWrite),
                               variable(arg)});
            return;
        }
        if (op == "acq" || op == "rel") {
            const std::uint32_t l = lock(arg);
            LockState& ls = locks_[l];
            if (op == "acq") {
                if (ls.holder != kNone && ls.holder != t)
                    fail("acq(" + std::string(arg) + ") while thread " +
                         trace_.processes[ls.holder].name + " holds it (acquired at line " +
                         std::to_string(ls.acquired_at) + ")");
                if (ls.depth++ == 0) {
                    ls.holder = t;
                    ls.acquired_at = number;
                }
                sync_event(t, EventKind::Acquire, l, ls.counter++, loc);
            } else {
                if (ls.holder != t)
                    fail("rel(" + std::string(arg) + ") by thread " + std::string(thread) +
                         ", which does not hold it");
                if (--ls.depth == 0) ls.holder = kNone;
                sync_event(t, EventKind::Release, l, ls.counter++, loc);
            }
            return;
        }
        if (op == "fork") {
            if (arg == thread) fail("thread " + std::string(thread) + " forks itself");
            const std::uint32_t child = process(arg);
            ThreadState& cs = threads_[child];
            if (cs.forked) fail("fork(" + std::string(arg) + "): thread was already forked");
            if (cs.started)
                fail("fork(" + std::string(arg) + "): thread already ran before it was forked");
            cs.forked = true;
            trace_.processes[child].parent = t;
            sync_event(t, EventKind::Fork, child, 0, loc);
            return;
        }
        // join
        if (arg == thread) fail("thread " + std::string(thread) + " joins itself");
        const auto it = names_.find(std::string(arg));
        if (it == names_.end() || (!threads_[it->second].started && !threads_[it->second].forked))
            fail("join(" + std::string(arg) + "): no such thread");
        const std::uint32_t child = it->second;
        if (threads_[child].joined_at != 0)
            fail("join(" + std::string(arg) + "): thread was already joined at line " +
                 std::to_string(threads_[child].joined_at));
        close_event(child);
        threads_[child].joined_at = number;
        sync_event(t, EventKind::Join, child, 0, loc);
    }

    Trace finish() {
        for (std::uint32_t t = 0; t < threads_.size(); ++t)
            close_event(t);
        trace_.has_clock = true;
        return std::move(trace_);
    }

  private:
    [[noreturn]] void fail(const std::string& what) const {
        throw InputError(trace_.path, line_, what);
    }

    std::uint32_t process(std::string_view name) {
        auto [it, inserted] = names_.try_emplace(
            std::string(name), static_cast<std::uint32_t>(trace_.processes.size()));
        if (inserted) {
            trace_.processes.push_back(Process{std::string(name), kNone, {}});
            threads_.emplace_back();
        }
        return it->second;
    }

    std::uint32_t location(std::string_view text) {
        if (text.empty()) return kNone;
        auto [it, inserted] = locations_.try_emplace(
            std::string(text), static_cast<std::uint32_t>(trace_.locations.size()));
        if (inserted) {
            SourceLocation loc;
            const auto colon = text.rfind(':');
            std::uint32_t line = 0;
            bool numeric = colon != std::string_view::npos && colon + 1 < text.size();
            if (numeric) {
                for (char c : text.substr(colon + 1)) {
                    if (c < '0' || c > '9' || line > 100000000) {
                        numeric = false;
                        break;
                    }
                    line = line * 10 + static_cast<std::uint32_t>(c - '0');
                }
            }
            loc.file = std::string(numeric ? text.substr(0, colon) : text);
            loc.line = numeric ? line : 0;
            trace_.locations.push_back(std::move(loc));
        }
        return it->second;
    }

    std::uint64_t variable(std::string_view name) {
        auto [it, inserted] =
            variables_.try_emplace(std::string(name), trace_.variable_names.size());
        if (inserted) trace_.variable_names.emplace_back(name);
        return it->second;
    }

    std::uint32_t lock(std::string_view name) {
        auto [it, inserted] = lock_ids_.try_emplace(
            std::string(name), static_cast<std::uint32_t>(trace_.objects.size()));
        if (inserted) {
            trace_.objects.push_back(SyncObject{SyncObjectKind::Lock, std::string(name), 0, 0});
            locks_.emplace_back();
        }
        return it->second;
    }

    void sync_event(std::uint32_t t, EventKind kind, std::uint32_t object, std::uint64_t counter,
                    std::uint32_t loc) {
        close_event(t);
        Event e;
        e.kind = kind;
        e.object = object;
        e.counter = counter;
        e.clock_start = e.clock_finish = line_;
        e.location = loc;
        trace_.processes[t].events.push_back(e);
    }

    // Turns the open run of accesses into one computation event: one site per (location, kind)
    // with its variables merged into intervals.
    void close_event(std::uint32_t t) {
        ThreadState& ts = threads_[t];
        if (ts.open.empty()) return;
        std::sort(ts.open.begin(), ts.open.end());
        Event e;
        e.kind = EventKind::Computation;
        e.clock_start = ts.open_start;
        e.clock_finish = ts.open_finish;
        e.first_site = static_cast<std::uint32_t>(trace_.sites.size());
        for (std::size_t i = 0; i < ts.open.size();) {
            AccessSite site;
            site.location = ts.open[i].location;
            site.flags = ts.open[i].flags;
            site.first_range = static_cast<std::uint32_t>(trace_.ranges.size());
            std::size_t j = i;
            for (; j < ts.open.size() && ts.open[j].location == site.location &&
                   ts.open[j].flags == site.flags;
                 ++j) {
                const std::uint64_t v = ts.open[j].variable;
                if (trace_.ranges.size() > site.first_range && trace_.ranges.back().hi >= v) {
                    const Interval last = trace_.ranges.back();
                    trace_.ranges.set(trace_.ranges.size() - 1,
                                      {last.lo, std::max(last.hi, v + 1)});
                } else
                    trace_.ranges.push_back({v, v + 1});
            }
            site.range_count = static_cast<std::uint32_t>(trace_.ranges.size() - site.first_range);
            trace_.sites.push_back(site);
            i = j;
        }
        e.site_count = static_cast<std::uint32_t>(trace_.sites.size() - e.first_site);
        trace_.processes[t].events.push_back(e);
        ts.open.clear();
    }

    Trace trace_;
    std::uint64_t line_ = 0;
    std::vector<ThreadState> threads_;
    std::vector<LockState> locks_;
    std::unordered_map<std::string, std::uint32_t> names_;
    std::unordered_map<std::string, std::uint32_t> locations_;
    std::unordered_map<std::string, std::uint64_t> variables_;
    std::unordered_map<std::string, std::uint32_t> lock_ids_;
};

} // namespace

Trace read_std_trace(const std::string& path, const ProgressCallback& progress) {
    // Only a regular file: a FIFO or a device in its place is refused instead of hanging.
    RegularFile input(path, Symlinks::Follow);
    const double size = static_cast<double>(std::max<std::uint64_t>(1, input.size()));
    const auto file = input.release_to_stdio();
    StdTraceParser parser(path);
    char* buffer = nullptr;
    std::size_t capacity = 0;
    std::uint64_t number = 0;
    try {
        ssize_t n;
        while ((n = ::getline(&buffer, &capacity, file.get())) >= 0) {
            if (progress && ((number + 1) & 0xffff) == 0)
                progress("reading trace", static_cast<double>(std::ftell(file.get())) / size);
            if (std::memchr(buffer, '\0', static_cast<std::size_t>(n)) != nullptr)
                throw InputError(path, number + 1, "binary data in a text trace");
            // Lines end in LF, CR LF or a lone CR (old Mac files): a CR-only file has many
            // lines, not one.
            std::string_view rest(buffer, static_cast<std::size_t>(n));
            do {
                std::size_t end = rest.find('\r');
                if (end != std::string_view::npos && end + 1 < rest.size() && rest[end + 1] == '\n')
                    end = std::string_view::npos; // CR LF ends this line
                const std::string_view line = rest.substr(0, end);
                rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
                parser.parse_line(line, ++number);
            } while (!rest.empty());
        }
    } catch (...) {
        std::free(buffer);
        throw;
    }
    std::free(buffer);
    if (std::ferror(file.get())) throw InputError(path, number, "read error");
    return parser.finish();
}

} // namespace firstrace
