// The selected race site as a report a person pastes into an issue or a chat: plain text or
// Markdown. The site and its races are the stored ones (site_pairs, race_site_pairs): the
// same race sites as `firstrace report`.
#pragma once

#include <QList>
#include <QString>

#include "results_records.hpp"

namespace firstrace::gui {

enum class ReportFormat { Text, Markdown };

QString raceSiteReport(const StoredRun& run, const RaceSiteRow& site,
                       const QList<RaceDetails>& races, ReportFormat format);

} // namespace firstrace::gui
