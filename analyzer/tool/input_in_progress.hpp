// The input (a trace, a results database) a command is reading or analysing, so that main()
// can name it when memory runs out: std::bad_alloc carries no context, and issue 13 asks for
// one line naming the input ("firstrace analyze: big.trace: out of memory ...", exit 2).
//
// A scope sets the name for its lifetime and restores the previous one when it ends normally;
// when it ends by an exception the name stays, for main()'s handler to read after unwinding.
#pragma once

#include <exception>
#include <string>
#include <utility>

namespace firstrace::cli {

class InputInProgress {
  public:
    explicit InputInProgress(std::string path)
        : previous_(std::exchange(current(), std::move(path))),
          exceptions_(std::uncaught_exceptions()) {}
    ~InputInProgress() {
        if (std::uncaught_exceptions() == exceptions_) current() = std::move(previous_);
    }
    InputInProgress(const InputInProgress&) = delete;
    InputInProgress& operator=(const InputInProgress&) = delete;

    // The innermost input being read, or the one being read when an exception left its scope;
    // empty when none.
    static std::string& current() {
        static std::string path;
        return path;
    }

  private:
    std::string previous_;
    int exceptions_;
};

} // namespace firstrace::cli
