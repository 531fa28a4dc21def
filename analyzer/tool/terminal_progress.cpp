#include "terminal_progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace firstrace::cli {

TerminalProgress::TerminalProgress(bool enabled) : enabled_(enabled && isatty(STDERR_FILENO)) {}

TerminalProgress::~TerminalProgress() {
    finish();
}

ProgressCallback TerminalProgress::callback() {
    if (!enabled_) return {};
    return [this](const std::string& stage, double fraction) { update(stage, fraction); };
}

void TerminalProgress::update(const std::string& stage, double fraction) {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    // Redraw at most 10 times a second, but always on a stage change.
    if (stage == last_stage_ && now - last_draw_ < std::chrono::milliseconds(100)) return;
    last_stage_ = stage;
    last_draw_ = now;
    std::fprintf(stderr, "\r\033[K%s %3.0f%%", stage.c_str(), fraction * 100.0);
    std::fflush(stderr);
    dirty_ = true;
}

void TerminalProgress::finish() {
    if (!dirty_) return;
    std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
    dirty_ = false;
}

} // namespace firstrace::cli
