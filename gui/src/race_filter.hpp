// What the partition tree shows: races by status, by source file, by thread and by a search
// text. An empty filter shows everything.
#pragma once

#include <QList>
#include <QString>

#include "results_records.hpp"

namespace firstrace::gui {

struct RaceFilter {
    QList<RaceStatus> statuses; // empty: every status
    bool actualOnly = false;
    QString file;   // a race with an access site in this file (locations.file)
    QString thread; // a race with an event of this process (processes.name)
    QString search; // race id, or part of a variable, file, function or thread name

    bool isEmpty() const {
        return statuses.isEmpty() && !actualOnly && file.isEmpty() && thread.isEmpty() &&
               search.trimmed().isEmpty();
    }
    friend bool operator==(const RaceFilter&, const RaceFilter&) = default;
};

} // namespace firstrace::gui
