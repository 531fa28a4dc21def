#include "race_site_report.hpp"

#include <QStringList>

#include "call_stack.hpp"

namespace firstrace::gui {

namespace {

QString sitesText(const QList<AccessSite>& sites) {
    QStringList parts;
    for (const AccessSite& site : sites) {
        QString text = site.access.location();
        if (!site.kind.isEmpty()) text += QStringLiteral(" (%1)").arg(site.kind);
        if (!parts.contains(text)) parts << text;
    }
    return parts.isEmpty() ? QStringLiteral("<unknown>") : parts.join(QStringLiteral(", "));
}

QString countsText(const StatusCounts& c) {
    QStringList parts;
    if (c.feasible) parts << QStringLiteral("%1 feasible").arg(c.feasible);
    if (c.feasibleEc) parts << QStringLiteral("%1 feasible-ec").arg(c.feasibleEc);
    if (c.unvalidated) parts << QStringLiteral("%1 unvalidated").arg(c.unvalidated);
    if (c.actual) parts << QStringLiteral("%1 actual").arg(c.actual);
    QString text = QStringLiteral("%1 race%2").arg(c.races).arg(c.races == 1 ? "" : "s");
    if (!parts.isEmpty()) text += QStringLiteral(": ") + parts.join(QStringLiteral(", "));
    return text;
}

QString statusText(const RaceSummary& s) {
    QString status = statusName(s.status);
    if (s.actual && *s.actual) status += QStringLiteral(", actual");
    if (s.tangle) status += QStringLiteral(", tangle %1").arg(*s.tangle);
    status += s.firstPartition ? QStringLiteral(", first partition %1").arg(s.partition)
                               : QStringLiteral(", partition %1").arg(s.partition);
    return status;
}

// Markdown table cells: a '|' ends the cell, and '\\', '`', '*', '_' would format the text.
QString mdCell(QString text) {
    for (const char* special : {"\\", "|", "`", "*", "_"})
        text.replace(QLatin1String(special), QLatin1Char('\\') + QLatin1String(special));
    return text;
}

QString locationText(const SourceLocation& location) {
    QString text = location.location();
    if (!location.function.isEmpty())
        text += QStringLiteral(" in %1").arg(elideTemplateArguments(location.function));
    return text;
}

} // namespace

QString raceSiteReport(const StoredRun& run, const RaceSiteRow& site,
                       const QList<RaceDetails>& races, ReportFormat format) {
    const QString title = QStringLiteral("Race site %1").arg(site.key);
    QString out;
    if (format == ReportFormat::Text) {
        out += title + QLatin1Char('\n');
        out +=
            QStringLiteral("  %1\n  %2\n").arg(locationText(site.first), locationText(site.second));
        if (!site.variable.isEmpty()) out += QStringLiteral("  on %1\n").arg(site.variable);
        out += QStringLiteral("Trace: %1 (%2 ordering)\n").arg(run.tracePath, run.ordering);
        out += countsText(site.counts) + QLatin1Char('\n');
        for (const RaceDetails& race : races) {
            const RaceSummary& s = race.summary;
            out += QStringLiteral("\nrace %1  %2\n").arg(s.id).arg(statusText(s));
            out += QStringLiteral("  %1 #%2: %3\n")
                       .arg(s.threadA)
                       .arg(s.indexA)
                       .arg(sitesText(race.sitesA));
            out += QStringLiteral("  %1 #%2: %3\n")
                       .arg(s.threadB)
                       .arg(s.indexB)
                       .arg(sitesText(race.sitesB));
            if (!race.memory.isEmpty()) out += QStringLiteral("  on %1\n").arg(race.memory);
        }
        return out;
    }

    out += QStringLiteral("## %1\n\n").arg(mdCell(title));
    out += QStringLiteral("- %1\n- %2\n")
               .arg(mdCell(locationText(site.first)), mdCell(locationText(site.second)));
    if (!site.variable.isEmpty()) out += QStringLiteral("- on %1\n").arg(mdCell(site.variable));
    out += QStringLiteral("\nTrace `%1` (%2 ordering): %3.\n\n")
               .arg(run.tracePath, run.ordering, countsText(site.counts));
    out += QStringLiteral("| Race | Status | Event A | Sites A | Event B | Sites B | Memory |\n");
    out += QStringLiteral("|---:|---|---|---|---|---|---|\n");
    for (const RaceDetails& race : races) {
        const RaceSummary& s = race.summary;
        out += QStringLiteral("| %1 | %2 | %3 #%4 | %5 | %6 #%7 | %8 | %9 |\n")
                   .arg(s.id)
                   .arg(mdCell(statusText(s)))
                   .arg(mdCell(s.threadA))
                   .arg(s.indexA)
                   .arg(mdCell(sitesText(race.sitesA)))
                   .arg(mdCell(s.threadB))
                   .arg(s.indexB)
                   .arg(mdCell(sitesText(race.sitesB)))
                   .arg(mdCell(race.memory));
    }
    return out;
}

} // namespace firstrace::gui
