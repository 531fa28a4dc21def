#include "call_stack.hpp"

namespace firstrace::gui {

namespace {

bool underSystemDirectory(const QString& file) {
    for (const char* prefix : {"/usr/", "/lib/", "/lib64/", "/opt/"})
        if (file.startsWith(QLatin1String(prefix))) return true;
    return false;
}

// Compiler and C++ standard library headers of a toolchain installed outside /usr (a sysroot,
// a toolchain in the home directory): .../include/c++/<version>/..., .../lib/gcc/<target>/...
bool libraryHeader(const QString& file) {
    return file.contains(QLatin1String("/include/c++/")) ||
           file.contains(QLatin1String("/lib/gcc/"));
}

} // namespace

bool isUserFrame(const SourceLocation& frame) {
    return !frame.file.isEmpty() && !underSystemDirectory(frame.file) && !libraryHeader(frame.file);
}

QString elideTemplateArguments(const QString& function) {
    QString out;
    out.reserve(function.size());
    int depth = 0;
    for (int i = 0; i < function.size(); ++i) {
        const QChar c = function[i];
        if (depth == 0 && c == QLatin1Char('<')) {
            // operator<, operator<<, operator<=, operator<=>: part of the name.
            if (out.endsWith(QLatin1String("operator")) ||
                out.endsWith(QLatin1String("operator<"))) {
                out += c;
                continue;
            }
            out += QStringLiteral("<\u2026>");
            depth = 1;
            continue;
        }
        if (depth > 0) {
            if (c == QLatin1Char('<')) {
                ++depth;
            } else if (c == QLatin1Char('>')) {
                --depth;
            }
            continue;
        }
        out += c;
    }
    // An unbalanced '<' (a damaged name) would swallow the rest: keep the name as it was.
    return depth == 0 ? out : function;
}

FoldedStack foldStack(const QList<SourceLocation>& stack) {
    FoldedStack folded;
    for (const SourceLocation& frame : stack)
        (isUserFrame(frame) ? folded.userFrames : folded.libraryFrames).append(frame);
    return folded;
}

QString frameText(const SourceLocation& frame) {
    QString function =
        frame.function.isEmpty() ? QStringLiteral("??") : elideTemplateArguments(frame.function);
    if (frame.file.isEmpty()) return function;
    return function + QStringLiteral("  ") + frame.shortLocation();
}

} // namespace firstrace::gui
