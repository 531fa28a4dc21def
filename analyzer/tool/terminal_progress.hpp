// Progress on stderr for long work: shown only when stderr is a terminal and not --quiet.
#pragma once

#include <chrono>
#include <string>

#include "firstrace/analysis.hpp"

namespace firstrace::cli {

class TerminalProgress {
  public:
    explicit TerminalProgress(bool enabled);
    ~TerminalProgress();
    // A callback for AnalysisOptions::progress (empty when disabled).
    ProgressCallback callback();
    void update(const std::string& stage, double fraction);
    void finish();

  private:
    bool enabled_;
    bool dirty_ = false;
    std::string last_stage_;
    std::chrono::steady_clock::time_point last_draw_{};
};

} // namespace firstrace::cli
