#include "results_records.hpp"

namespace firstrace::gui {

QString statusName(RaceStatus status) {
    switch (status) {
    case RaceStatus::Feasible:
        return QStringLiteral("feasible");
    case RaceStatus::FeasibleEc:
        return QStringLiteral("feasible-ec");
    case RaceStatus::Unvalidated:
        return QStringLiteral("unvalidated");
    }
    return QString();
}

std::optional<RaceStatus> parseRaceStatus(const QString& name) {
    if (name == QLatin1String("feasible")) return RaceStatus::Feasible;
    if (name == QLatin1String("feasible-ec")) return RaceStatus::FeasibleEc;
    if (name == QLatin1String("unvalidated")) return RaceStatus::Unvalidated;
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

QString SourceSite::location() const {
    if (file.isEmpty()) return QStringLiteral("<unknown>");
    return line > 0 ? file + QLatin1Char(':') + QString::number(line) : file;
}

QString SourceSite::shortLocation() const {
    return withoutDirectories(location());
}

QString withoutDirectories(const QString& location) {
    const int slash = location.lastIndexOf(QLatin1Char('/'));
    return slash < 0 ? location : location.mid(slash + 1);
}

} // namespace firstrace::gui
