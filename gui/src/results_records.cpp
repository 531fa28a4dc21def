#include "results_records.hpp"

namespace firstrace::gui {

QString statusName(RaceStatus status) {
    return QString::fromLatin1(firstrace::to_string(status));
}

std::optional<RaceStatus> parseRaceStatus(const QString& name) {
    for (RaceStatus status : kRaceStatuses)
        if (name == QLatin1String(firstrace::to_string(status))) return status;
    return std::nullopt;
}

QString statusDescription(RaceStatus status) {
    switch (status) {
    case RaceStatus::Feasible:
        return QStringLiteral("Feasible: the two events are unordered even when shared-data "
                              "dependences are respected (thesis Thm 7.1).");
    case RaceStatus::FeasibleEc:
        return QStringLiteral("Feasible (event control): ordered by shared-data dependences, "
                              "but no event-control path orders the two events (Thm 7.3).");
    case RaceStatus::Unvalidated:
        return QStringLiteral("Unvalidated: may be an artifact of other races; its tangle "
                              "holds at least one feasible race (Thm 7.2).");
    }
    return QString();
}

QString SourceLocation::location() const {
    if (file.isEmpty()) return QStringLiteral("<unknown>");
    return line > 0 ? file + QLatin1Char(':') + QString::number(line) : file;
}

QString SourceLocation::shortLocation() const {
    return withoutDirectories(location());
}

QString withoutDirectories(const QString& location) {
    const int slash = location.lastIndexOf(QLatin1Char('/'));
    return slash < 0 ? location : location.mid(slash + 1);
}

bool HistoryData::hasClock() const {
    if (events.isEmpty()) return false;
    for (const HistoryEvent& event : events)
        if (!event.clockStart || !event.clockFinish) return false;
    return true;
}

} // namespace firstrace::gui
