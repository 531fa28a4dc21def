// Helpers of the results-database tests: temporary directories, file snapshots, hand-made and
// analysed runs, and running the `firstrace` binary.
#pragma once

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "firstrace/analysis.hpp"
#include "firstrace/report_model.hpp"
#include "firstrace/trace_loader.hpp"
#include "std_trace_generator.hpp"

namespace firstrace::test {

class TempDir {
  public:
    TempDir() {
        char name[] = "/tmp/firstrace-store-XXXXXX";
        if (!mkdtemp(name)) throw std::runtime_error("mkdtemp failed");
        path_ = name;
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    std::string file(const std::string& name) const { return path_ + "/" + name; }
    const std::string& path() const { return path_; }

  private:
    std::string path_;
};

inline std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

inline void write_file(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

// Content and modification time: what "never modified" means.
struct FileSnapshot {
    std::string bytes;
    std::int64_t mtime_ns = 0;
    bool exists = false;
    static FileSnapshot of(const std::string& path) {
        FileSnapshot s;
        struct stat st {};
        if (stat(path.c_str(), &st) != 0) return s;
        s.exists = true;
        s.bytes = read_file(path);
        s.mtime_ns = std::int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
        return s;
    }
    friend bool operator==(const FileSnapshot&, const FileSnapshot&) = default;
};

inline std::string json_of(const ReportModel& model) {
    std::ostringstream out;
    write_json_report(out, model);
    return out.str();
}

inline std::string sample_trace(const std::string& name) {
    return std::string(FIRSTRACE_SAMPLES) + "/traces/" + name;
}

// A random STD trace written to `path`.
inline void write_random_std(const std::string& path, std::uint64_t seed,
                             std::uint64_t operations = 300) {
    bench::GeneratorParams p;
    p.seed = seed;
    p.operations = operations;
    p.threads = 3 + static_cast<std::uint32_t>(seed % 4);
    std::ofstream out(path);
    bench::StdTraceGenerator(p).write(out);
}

struct CommandRun {
    int status = -1;
    std::string out; // stdout
    std::string err; // stderr
};

// Runs `firstrace ARGS` with stdout and stderr captured separately.
inline CommandRun run_firstrace(const std::string& args) {
    TempDir dir;
    const std::string out = dir.file("out"), err = dir.file("err");
    const std::string command =
        std::string(FIRSTRACE_BINARY) + " " + args + " >" + out + " 2>" + err;
    const int status = std::system(command.c_str());
    CommandRun r;
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = read_file(out);
    r.err = read_file(err);
    return r;
}

// A byte-addressed trace made by hand, with what STD traces lack: functions, columns, atomic
// and read-write sites, contexts, sync objects of several kinds, clocks, a truncated flag.
struct HandMadeRun {
    Trace trace;
    AnalysisResult result;
};

inline HandMadeRun hand_made_run() {
    HandMadeRun h;
    Trace& t = h.trace;
    t.path = "/tmp/hand-made.trace";
    t.format = "firstrace";
    t.has_clock = true;
    t.truncated = true;
    t.truncation_reason = "the program crashed";
    t.locations = {
        {"/src/app/queue.c", 42, 7, "queue_push", 0x401000, kNone},
        // an access in a library header inlined into the user's queue_pop (location 5)
        {"/usr/include/c++/12/bits/hashtable.h", 1650, 3, "std::_Hashtable::find", 0x401100, 5},
        {"", 0, 0, "", 0x402000, kNone}, // unknown location
        {"/src/app/main.c", 10, 1, "main", 0x400500, kNone},
        {"/src/app/weird <name> & \"quotes\".c", 5, 0, "f|g", 0x400600, kNone},
        {"/src/app/queue.c", 57, 3, "queue_pop", 0x401100, kNone},
        {"/src/app/main.c", 20, 5, "main", 0x400700, kNone},
    };
    t.contexts = {{kNone, 3}, {0, 0}, {kNone, 6}};
    t.heap_blocks = {{{0x7000, 0x7018}, 0, 1, 6, kNone}};
    t.objects = {{SyncObjectKind::Lock, "mutex@0x1000", 0x1000, 0},
                 {SyncObjectKind::Semaphore, "sem@0x2000", 0x2000, 2}};
    t.ranges = {
        {0x7000, 0x7018}, {0x7000, 0x7004}, {0x7010, 0x7018}, {0x7000, 0x7008}, {0x9000, 0x9001}};
    t.sites = {
        {0, kAccessWrite, 0, 1, 0},         {2, kAccessRead | kAccessWrite, 1, 1, kNone},
        {1, kAccessRead, 2, 1, 2},          {4, kAccessWrite | kAccessAtomic, 3, 1, kNone},
        {kNone, kAccessWrite, 4, 1, kNone},
    };
    Process main;
    main.name = "thread 1";
    Event fork;
    fork.kind = EventKind::Fork;
    fork.object = 1;
    fork.clock_start = 1;
    fork.clock_finish = 2;
    fork.location = 3;
    fork.context = 0;
    Event comp;
    comp.kind = EventKind::Computation;
    comp.clock_start = 3;
    comp.clock_finish = 9;
    comp.first_site = 0;
    comp.site_count = 2;
    comp.context = 1;
    Event lock;
    lock.kind = EventKind::Acquire;
    lock.object = 0;
    lock.counter = 0;
    lock.clock_start = 2;
    lock.clock_finish = 3;
    lock.location = 6;
    lock.context = 2;
    Event unlock = lock;
    unlock.kind = EventKind::Release;
    unlock.counter = 1;
    unlock.clock_start = 9;
    unlock.clock_finish = 9;
    main.events = {fork, lock, comp, unlock};
    Process child;
    child.name = "thread 2";
    child.parent = 0;
    Event c0 = comp;
    c0.first_site = 2;
    c0.site_count = 3;
    c0.clock_start = 4;
    c0.clock_finish = 8;
    Event post;
    post.kind = EventKind::SemPost;
    post.object = 1;
    post.counter = 3;
    post.clock_start = 10;
    post.clock_finish = 10;
    child.events = {c0, post};
    t.processes = {main, child};

    AnalysisResult& r = h.result;
    r.ordering = Ordering::Complete;
    Race r0;
    r0.id = 0;
    r0.a = {0, 2};
    r0.b = {1, 0};
    r0.status = RaceStatus::Feasible;
    r0.actual = true;
    r0.partition = 0;
    Race r1 = r0;
    r1.id = 1;
    r1.status = RaceStatus::Unvalidated;
    r1.tangle = 0;
    r1.actual = false;
    r1.partition = 1;
    r1.a = {0, 3}; // both events of race 0 precede event 3 of thread 1 (Def 8.1)
    r1.b = {1, 1};
    // What a race conflicts on is recomputed from its events (race_accesses.hpp): race 0
    // conflicts on two ranges, through a plain/atomic pair and an inlined library frame; races
    // 1 and 2 name synchronization events, which have no access site (the unknown site pair).
    Race r2 = r0;
    r2.id = 2;
    r2.b = {1, 1};
    r2.status = RaceStatus::FeasibleEc;
    r2.tangle = 0;
    r2.partition = 1;
    r.races = {r0, r1, r2};
    r.partitions = {{0, true, 1, {1}}, {1, false, 2, {}}};
    r.edges = {{EdgeKind::Ordering, {0, 0}, {1, 0}, false},
               {EdgeKind::SharedData, {0, 2}, {1, 0}, true},
               {EdgeKind::EventControl, {1, 0}, {0, 2}, false}};
    r.counts.events = 6;
    r.counts.computation_events = 2;
    r.counts.accesses = 5;
    r.counts.processes = 2;
    r.counts.apparent = 3;
    r.counts.actual = 2;
    r.counts.feasible = 1;
    r.counts.feasible_ec = 1;
    r.counts.unvalidated = 1;
    r.counts.tangles = 1;
    r.counts.partitions = 2;
    r.counts.first_partitions = 1;
    r.stages = {{"graph", 0.5, 1 << 20}, {"races", 0.25, 2 << 20}};
    return h;
}

} // namespace firstrace::test
