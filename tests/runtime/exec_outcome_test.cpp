// The foreseen outcome of an exec (tracer/src/rt_exec_outcome.*) against the kernel itself: for
// each kind of name (a program, a script, a directory, a file without execute permission, a
// missing file, a dangling symlink, a path through a regular file, a descriptor) and for
// execvp's PATH search over several PATH values, a forked child really execs it and reports
// whether the exec returned; the prediction must say the same. The one class not foreseen (a
// file the kernel refuses only for its format, ENOEXEC) is checked to be predicted as succeeding.
#include <gtest/gtest.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "rt_exec_outcome.hpp"

namespace fs = std::filesystem;

namespace {

constexpr int kExecReturned = 113; // the child's status when the exec failed

// Runs `exec` in a child with 0, 1, 2 on /dev/null: true when the exec failed (returned).
template <class Exec> bool exec_fails(Exec exec) {
    const pid_t child = fork();
    if (child == 0) {
        const int null = open("/dev/null", O_RDWR); // what runs cannot wait for input
        for (int std_fd = 0; std_fd < 3; ++std_fd)
            dup2(null, std_fd);
        exec();
        _exit(kExecReturned);
    }
    int status = 0;
    waitpid(child, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == kExecReturned;
}

void write_file(const fs::path& p, const std::string& text, fs::perms perms) {
    std::ofstream(p) << text;
    fs::permissions(p, perms);
}

class ExecOutcome : public ::testing::Test {
  protected:
    void SetUp() override {
        root = fs::temp_directory_path() / ("firstrace-exec-outcome-" + std::to_string(getpid()));
        fs::remove_all(root);
        fs::create_directories(root / "bin1");
        fs::create_directories(root / "bin2");
        fs::create_directories(root / "dir");
        fs::copy_file("/bin/true", root / "bin1" / "frt-program");
        fs::permissions(root / "bin1" / "frt-program", fs::perms::owner_all);
        write_file(root / "bin2" / "frt-script", "#!/bin/sh\nexit 0\n", fs::perms::owner_all);
        write_file(root / "bin2" / "frt-plain", "data\n",
                   fs::perms::owner_read | fs::perms::owner_write);
        write_file(root / "bin2" / "frt-garbage", "\x01\x02garbage\n", fs::perms::owner_all);
        fs::create_directories(root / "bin2" / "frt-subdir");
        fs::create_symlink(root / "bin1" / "frt-program", root / "link");
        fs::create_symlink(root / "missing", root / "dangling");
    }
    void TearDown() override { fs::remove_all(root); }
    fs::path root;
};

TEST_F(ExecOutcome, PathsAsTheKernelDecides) {
    const std::vector<std::string> names = {
        "bin1/frt-program", "bin2/frt-script", "bin2/frt-plain", "dir",
        "missing",          "dangling",        "link",           "bin2/frt-plain/x",
        "bin2/frt-subdir"};
    for (const std::string& name : names) {
        const std::string path = (root / name).string();
        char* argv[] = {const_cast<char*>(path.c_str()), nullptr};
        const bool fails = exec_fails([&] { execv(path.c_str(), argv); });
        EXPECT_EQ(frt::exec_of_path_fails(path.c_str()), fails) << name;
        EXPECT_EQ(frt::exec_search_fails(path.c_str()), fails) << name << " (execvp, a slash)";
        const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd >= 0) {
            // fexecve of a script needs the descriptor open across the exec (/dev/fd/N)
            const int kept = fcntl(fd, F_DUPFD, 100);
            const bool fd_fails = exec_fails([&] { fexecve(kept, argv, environ); });
            EXPECT_EQ(frt::exec_of_descriptor_fails(kept), fd_fails) << name << " (fexecve)";
            close(kept);
            close(fd);
        }
    }
    EXPECT_TRUE(frt::exec_of_path_fails(nullptr));
}

TEST_F(ExecOutcome, ExecveatAsTheKernelDecides) {
    // names relative to a directory descriptor, with and without AT_SYMLINK_NOFOLLOW (a link
    // fails: ELOOP), and AT_EMPTY_PATH on a descriptor of the file itself
    // (open across the exec: a script named relative to a close-on-exec descriptor fails later,
    // when its interpreter cannot open /dev/fd/N/NAME, a failure not foreseen)
    const int dir = open(root.c_str(), O_RDONLY | O_DIRECTORY);
    ASSERT_GE(dir, 0);
    const std::vector<std::string> names = {"bin1/frt-program",
                                            "bin2/frt-script",
                                            "bin2/frt-plain",
                                            "dir",
                                            "missing",
                                            "dangling",
                                            "link",
                                            "",
                                            "."};
    for (const std::string& name : names) {
        char* argv[] = {const_cast<char*>("frt"), nullptr};
        for (int flags : {0, AT_SYMLINK_NOFOLLOW}) {
            const bool fails =
                exec_fails([&] { execveat(dir, name.c_str(), argv, environ, flags); });
            EXPECT_EQ(frt::exec_at_fails(dir, name.c_str(), flags), fails)
                << "'" << name << "' flags " << flags;
        }
        const int fd = openat(dir, name.empty() ? "." : name.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd >= 0) {
            const int kept = fcntl(fd, F_DUPFD, 100); // a script needs it open across the exec
            const bool fails =
                exec_fails([&] { execveat(kept, "", argv, environ, AT_EMPTY_PATH); });
            EXPECT_EQ(frt::exec_at_fails(kept, "", AT_EMPTY_PATH), fails) << name << " (empty)";
            close(kept);
            close(fd);
        }
    }
    EXPECT_TRUE(frt::exec_at_fails(dir, nullptr, 0));
    close(dir);
}

TEST_F(ExecOutcome, ForeseesNothingBeyondTheFirstChecks) {
    // the kernel refuses this file for its format (ENOEXEC) only after the checks foreseen
    const std::string path = (root / "bin2" / "frt-garbage").string();
    char* argv[] = {const_cast<char*>(path.c_str()), nullptr};
    EXPECT_TRUE(exec_fails([&] { execv(path.c_str(), argv); }));
    EXPECT_FALSE(frt::exec_of_path_fails(path.c_str()));
}

TEST_F(ExecOutcome, PathSearchAsExecvp) {
    const std::string bin1 = (root / "bin1").string(), bin2 = (root / "bin2").string(),
                      missing = (root / "missing").string();
    const std::vector<std::optional<std::string>> paths = {
        std::nullopt,         "",         bin1,       bin2, bin1 + ":" + bin2,
        missing + ":" + bin2, bin2 + ":", ":" + bin1, "::", missing};
    // execvp runs a file refused for its format (ENOEXEC) with /bin/sh: "frt-garbage" succeeds.
    // (Names no directory of the default PATH holds: PATH unset searches /bin:/usr/bin.)
    const std::vector<std::string> names = {"frt-program", "frt-script", "frt-plain", "frt-garbage",
                                            "frt-subdir",  "frt-absent", ""};
    const std::optional<std::string> saved =
        getenv("PATH") ? std::optional<std::string>(getenv("PATH")) : std::nullopt;
    fs::current_path(root / "bin1"); // an empty PATH element is the current directory
    for (const auto& path : paths) {
        if (path)
            setenv("PATH", path->c_str(), 1);
        else
            unsetenv("PATH");
        for (const std::string& name : names) {
            char* argv[] = {const_cast<char*>(name.c_str()), nullptr};
            const bool fails = exec_fails([&] { execvp(name.c_str(), argv); });
            EXPECT_EQ(frt::exec_search_fails(name.c_str()), fails)
                << "'" << name << "' along PATH=" << path.value_or("(unset)");
        }
    }
    if (saved)
        setenv("PATH", saved->c_str(), 1);
    else
        unsetenv("PATH");
    fs::current_path(fs::temp_directory_path());
}

} // namespace
