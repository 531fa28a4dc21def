// How the browser presents a call stack (issue 15): the user's frames first, library frames
// folded, template arguments elided (the full name stays in a tool tip).
#pragma once

#include <QList>
#include <QString>

#include "results_records.hpp"

namespace firstrace::gui {

// A frame of the user's code: a known file not under /usr, /lib or /opt and not a compiler or
// C++ standard library header — the definition of a headline location in db-schema/SCHEMA.md
// (site_pairs). Frames without a file are not the user's.
bool isUserFrame(const SourceLocation& frame);

// "std::vector<std::pair<int, long>, std::allocator<...>>::push_back(int const&)" ->
// "std::vector<…>::push_back(int const&)". Operators (operator<, operator<<, operator->) are
// kept; text without template arguments is returned unchanged.
QString elideTemplateArguments(const QString& function);

// A stack split for display: the user's frames in stack order (innermost first) and the
// library frames between and around them, which a view folds.
struct FoldedStack {
    QList<SourceLocation> userFrames;
    QList<SourceLocation> libraryFrames;
};
FoldedStack foldStack(const QList<SourceLocation>& stack);

// "push_back  vector.tcc:114" with elided templates; the function alone when the file is unknown.
QString frameText(const SourceLocation& frame);

} // namespace firstrace::gui
