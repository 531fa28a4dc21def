// The selected partition as a report a person pastes into an issue or a chat: plain text or
// Markdown. Races are grouped into race sites (unordered pairs of source locations), because
// users fix lines, not event pairs (DESIGN "Outputs").
#pragma once

#include <QList>
#include <QString>

#include "results_records.hpp"

namespace firstrace::gui {

enum class ReportFormat { Text, Markdown };

QString partitionReport(const RunInfo& run, const PartitionSummary& partition,
                        const QList<RaceDetails>& races, ReportFormat format);

} // namespace firstrace::gui
