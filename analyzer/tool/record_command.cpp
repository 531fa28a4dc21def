// `firstrace record [-o DIR] -- PROG ARGS...`: run a program built with firstrace-cc, with the
// tracer writing into DIR, print the trace path and return the program's exit status.
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/program_options.hpp>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "command_line.hpp"
#include "commands.hpp"
#include "firstrace/errors.hpp"
#include "firstrace/process_traces.hpp"
#include "firstrace/trace_metadata.hpp"
#include "input_in_progress.hpp"
#include <firstrace/trace_format.hpp>

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace firstrace::cli {
namespace {

// Makes `dir` an empty, writable trace directory. An existing trace there is replaced; any
// other non-empty directory is left alone. Returns true when it created the directory.
bool prepare_output(const fs::path& dir) {
    std::error_code ec;
    bool created = false;
    const auto status = fs::status(dir, ec);
    if (fs::exists(status)) {
        if (!fs::is_directory(status))
            throw UsageError("cannot write the trace to " + dir.string() +
                             ": it exists and is not a directory");
        bool is_trace = fs::exists(dir / format::kMetadataFile);
        bool empty = fs::is_empty(dir, ec);
        if (!is_trace && !empty)
            throw UsageError(
                "cannot write the trace to " + dir.string() +
                ": the directory is not empty and holds no firstrace trace (choose another -o)");
        if (is_trace) {
            for (const auto& entry : fs::directory_iterator(dir)) {
                const std::string name = entry.path().filename().string();
                if (name == format::kMetadataFile || name.rfind(format::kStreamPrefix, 0) == 0)
                    fs::remove(entry.path(), ec);
                else if (is_process_trace_directory(entry.path().string()))
                    fs::remove_all(entry.path(), ec); // an earlier run's other process trace
            }
        }
    } else {
        created = true;
        fs::create_directories(dir, ec);
        if (ec)
            throw UsageError("cannot create the trace directory " + dir.string() + ": " +
                             ec.message());
    }
    // Probe that we (and so the traced program) can write there.
    const fs::path probe = dir / ".firstrace-write-test";
    const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        throw UsageError("cannot write to the trace directory " + dir.string() + ": " +
                         std::strerror(errno));
    ::close(fd);
    fs::remove(probe, ec);
    return created;
}

volatile sig_atomic_t g_child = 0;

// SIGTERM / SIGHUP sent to `firstrace record` go to the traced program (whose tracer flushes).
void forward_signal(int sig) {
    if (g_child > 0) kill(g_child, sig);
}

struct Exited {
    bool signaled = false;
    int value = 0;
};

// Waits for the program's descendants that outlived it, at most `seconds`: they are still
// writing their traces. A descendant that runs on (a daemon, a `sleep 100 &` started through
// system()) must not keep `record` from returning; its trace is read as a truncated one (the
// analyzer cuts it at a consistent point). Returns how many were still running at the end.
unsigned wait_for_descendants(double seconds) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    for (;;) {
        const pid_t ended = waitpid(-1, nullptr, WNOHANG);
        if (ended > 0) continue;
        if (ended < 0 && errno == EINTR) continue;
        if (ended < 0) return 0; // ECHILD: none left
        if (std::chrono::steady_clock::now() >= deadline) break;
        struct timespec pause {
            0, 10 * 1000 * 1000
        };
        nanosleep(&pause, nullptr);
    }
    unsigned running = 0;
    for (const auto& entry : fs::directory_iterator(
             "/proc", std::filesystem::directory_options::skip_permission_denied)) {
        const std::string name = entry.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        std::ifstream stat(entry.path() / "stat");
        std::string line;
        if (!std::getline(stat, line)) continue;
        // pid (comm) state ppid ...: comm may hold spaces and parentheses, read after the last ')'.
        const auto close = line.rfind(')');
        if (close == std::string::npos) continue;
        std::istringstream rest(line.substr(close + 1));
        char state = 0;
        pid_t ppid = 0;
        if (rest >> state >> ppid && ppid == getpid()) ++running;
    }
    return running;
}

Exited run(const std::vector<std::string>& command, const fs::path& dir, double wait_seconds) {
    int pipefd[2];
    if (pipe2(pipefd, O_CLOEXEC) != 0)
        throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
    std::vector<char*> argv;
    argv.reserve(command.size() + 1);
    for (const auto& a : command)
        argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    const std::string out = dir.string();

    // While the program runs, a Ctrl-C is for the program (same process group), not for us.
    struct sigaction ignore {
    }, old_int{}, old_quit{};
    ignore.sa_handler = SIG_IGN;
    sigaction(SIGINT, &ignore, &old_int);
    sigaction(SIGQUIT, &ignore, &old_quit);
    // The program's descendants that outlive it (a daemon, a child it did not wait for) become
    // ours, so that we can wait for the end of their traces (fork-PID, exec-PID).
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
    if (pid == 0) {
        sigaction(SIGINT, &old_int, nullptr);
        sigaction(SIGQUIT, &old_quit, nullptr);
        setenv("FIRSTRACE_OUTPUT", out.c_str(), 1);
        unsetenv("FIRSTRACE_DISABLE");
        execvp(argv[0], argv.data());
        const int err = errno;
        (void)!write(pipefd[1], &err, sizeof err);
        _exit(127);
    }
    ::close(pipefd[1]);
    g_child = pid;
    struct sigaction forward {
    }, old_term{}, old_hup{};
    forward.sa_handler = forward_signal;
    sigaction(SIGTERM, &forward, &old_term);
    sigaction(SIGHUP, &forward, &old_hup);
    int exec_errno = 0;
    const bool exec_failed = read(pipefd[0], &exec_errno, sizeof exec_errno) == sizeof exec_errno;
    ::close(pipefd[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    sigaction(SIGINT, &old_int, nullptr);
    sigaction(SIGQUIT, &old_quit, nullptr);
    sigaction(SIGTERM, &old_term, nullptr);
    sigaction(SIGHUP, &old_hup, nullptr);
    g_child = 0;
    // The processes that outlived the program are still writing their traces: wait for their
    // end, as `strace -f` does, but not for ever (Ctrl-C or a signal now ends `record` itself).
    if (const unsigned running = wait_for_descendants(wait_seconds); running > 0)
        std::cerr << "firstrace record: " << running << " process" << (running == 1 ? "" : "es")
                  << " started by " << command[0] << " still running after " << wait_seconds
                  << " s (--wait-descendants); their traces end where they were\n";
    if (exec_failed)
        throw UsageError("cannot run " + command[0] + ": " + std::strerror(exec_errno));
    Exited e;
    if (WIFSIGNALED(status)) {
        e.signaled = true;
        e.value = WTERMSIG(status);
    } else {
        e.value = WEXITSTATUS(status);
    }
    return e;
}

} // namespace

int record_command(const Arguments& args) {
    po::options_description visible(
        "usage: firstrace record [options] [--] PROG [ARGS...]\n\n"
        "Runs PROG (built with firstrace-cc / firstrace-c++) with the tracer writing a trace\n"
        "directory, names it on stderr (PROG's stdout stays its own) and exits with PROG's exit\n"
        "status (128 + N when PROG was killed by signal N). Analyze it with `firstrace analyze "
        "DIR`.\n"
        "Fork children and the instrumented programs PROG (or they) exec, spawn or run with\n"
        "system/popen are traced too, each into a trace of its own inside DIR (fork-PID,\n"
        "exec-PID); record returns once every one of them ended, waiting at most\n"
        "--wait-descendants seconds for those that outlive PROG (a daemon).\n\n"
        "options");
    visible.add_options()("help,h", "show this help")(
        "output,o", po::value<std::string>(),
        "trace directory (default: ./PROG.trace); an earlier trace there is replaced")(
        "runs", po::value<unsigned>()->default_value(1),
        "record N runs into DIR-1 .. DIR-N and exit with the first non-zero status: races are\n"
        "found only in the executions recorded (the schedule decides which accesses meet);\n"
        "`firstrace analyze DIR-1 .. DIR-N -o DB` stores them all, `firstrace report DB\n"
        "--all-runs` merges their race sites")("quiet,q",
                                               "do not name the trace directory on stderr")(
        "wait-descendants", po::value<double>()->default_value(10.0),
        "after PROG ends, wait at most SECONDS for the processes it started that still run\n"
        "(their traces are still being written); a trace unfinished then reads as truncated");

    // Options end at `--` or at the first argument that is not an option (the program).
    ParsedCommandLine parsed = parse_command_line(args, visible, "", Positionals::Command);
    const po::variables_map& vm = parsed.options;
    const std::vector<std::string>& command = parsed.command;
    if (vm.count("help")) {
        std::cout << visible << "\n";
        return 0;
    }
    if (command.empty())
        throw UsageError("no program given (usage: firstrace record [-o DIR] -- PROG ARGS...)");
    if (const double wait = vm["wait-descendants"].as<double>(); !(wait >= 0 && wait <= 1e6))
        throw UsageError("--wait-descendants must be between 0 and 1000000 seconds");
    if (const unsigned runs = vm["runs"].as<unsigned>(); runs != 1) {
        // N runs: each one a plain `record -o DIR-k` of the same command.
        if (runs == 0) throw UsageError("--runs must be at least 1");
        const std::string base = vm.count("output")
                                     ? vm["output"].as<std::string>()
                                     : fs::path(command[0]).filename().string() + ".trace";
        int status = 0;
        for (unsigned k = 1; k <= runs; ++k) {
            Arguments one{"-o", base + "-" + std::to_string(k)};
            if (vm.count("quiet")) one.push_back("-q");
            one.push_back("--wait-descendants");
            one.push_back(std::to_string(vm["wait-descendants"].as<double>()));
            one.push_back("--");
            one.insert(one.end(), command.begin(), command.end());
            const int s = record_command(one);
            if (status == 0) status = s;
        }
        return status;
    }

    fs::path dir = vm.count("output")
                       ? fs::path(path_option(vm, "output"))
                       : fs::path(fs::path(command[0]).filename().string() + ".trace");
    std::error_code ec;
    dir = fs::absolute(dir, ec).lexically_normal();
    const bool created = prepare_output(dir);
    // A directory we created and nothing was written to goes away again on failure.
    auto discard = [&] {
        std::error_code ignored;
        if (created && fs::is_empty(dir, ignored)) fs::remove(dir, ignored);
    };

    Exited exited;
    try {
        exited = run(command, dir, vm["wait-descendants"].as<double>());
    } catch (...) {
        discard();
        throw;
    }
    const fs::path metadata = dir / format::kMetadataFile;
    if (!fs::exists(metadata)) {
        discard();
        throw UsageError(command[0] +
                         " showed no instrumentation: it wrote no trace. Build it with "
                         "firstrace-cc / firstrace-c++ (or CC=firstrace-cc CXX=firstrace-c++)");
    }
    const InputInProgress input(dir.string());
    const TraceMetadata written = read_trace_metadata(dir.string());
    const bool instrumented = written.instrumented;
    {
        std::ofstream out(metadata, std::ios::app);
        out << trace_status_line(exited.signaled, exited.value) << "\n";
        out.flush();
        if (!out)
            throw InputError(metadata.string(), 0,
                             std::string("cannot add the program's exit status: ") +
                                 std::strerror(errno));
    }
    if (!instrumented)
        throw UsageError(command[0] +
                         " is linked with the firstrace runtime but none of its code was "
                         "instrumented: compile its sources with firstrace-cc / firstrace-c++ too");
    // On stderr, as valgrind and the sanitizers report: a traced program's stdout (a compressor
    // writing to a pipe, a test compared with its expected output) must be what it wrote.
    if (!vm.count("quiet"))
        std::cerr << "firstrace record: trace written to " << dir.string() << "\n";
    // Children created by fork() and instrumented programs exec'd under the program wrote
    // traces of their own into the directory (fork-<pid>, exec-<pid>, nested): say where;
    // `firstrace analyze DIR` analyzes them after DIR's own.
    if (const auto traces = process_traces(dir.string()); traces.size() > 1 && !vm.count("quiet")) {
        std::cerr << "firstrace record: traces of other processes (fork, exec):";
        for (std::size_t i = 1; i < traces.size(); ++i)
            std::cerr << " " << traces[i].path;
        std::cerr << "\n";
    }
    if (written.write_error_stream) {
        // Disk full, I/O error, file size limit: the recording is incomplete; say so and fail
        // even when the program succeeded, so that scripts do not analyze it unaware.
        std::cerr << "firstrace record: the tracer could not write " << dir.string() << "/"
                  << format::kStreamPrefix << *written.write_error_stream << format::kStreamSuffix
                  << " (" << std::strerror(written.write_error_errno)
                  << "); the trace holds what was written before and reads as truncated\n";
        return 2;
    }
    if (exited.signaled) {
        std::cerr << "firstrace record: " << command[0] << " was killed by signal " << exited.value
                  << " (" << strsignal(exited.value) << "); the trace holds what was complete\n";
        return 128 + exited.value;
    }
    return exited.value;
}

} // namespace firstrace::cli
