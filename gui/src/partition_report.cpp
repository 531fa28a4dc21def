#include "partition_report.hpp"

#include <QMap>
#include <QStringList>

namespace firstrace::gui {

namespace {

QString sitesText(const QList<SourceSite>& sites) {
    QStringList parts;
    for (const SourceSite& site : sites) {
        QString text = site.location();
        if (!site.kind.isEmpty()) text += QStringLiteral(" (%1)").arg(site.kind);
        if (!parts.contains(text)) parts << text;
    }
    return parts.isEmpty() ? QStringLiteral("<unknown>") : parts.join(QStringLiteral(", "));
}

QString siteKey(const QList<SourceSite>& sites) {
    QStringList parts;
    for (const SourceSite& site : sites)
        if (!parts.contains(site.location())) parts << site.location();
    parts.sort();
    return parts.isEmpty() ? QStringLiteral("<unknown>") : parts.join(QStringLiteral(", "));
}

QString countsText(const PartitionSummary& p) {
    QStringList parts;
    if (p.feasible) parts << QStringLiteral("%1 feasible").arg(p.feasible);
    if (p.feasibleEc) parts << QStringLiteral("%1 feasible-ec").arg(p.feasibleEc);
    if (p.unvalidated) parts << QStringLiteral("%1 unvalidated").arg(p.unvalidated);
    if (p.actual) parts << QStringLiteral("%1 actual").arg(p.actual);
    QString text = QStringLiteral("%1 race%2").arg(p.races).arg(p.races == 1 ? "" : "s");
    if (!parts.isEmpty()) text += QStringLiteral(": ") + parts.join(QStringLiteral(", "));
    return text;
}

QString mdCell(QString text) {
    text.replace(QLatin1Char('|'), QStringLiteral("\\|"));
    return text;
}

} // namespace

QString partitionReport(const RunInfo& run, const PartitionSummary& partition,
                        const QList<RaceDetails>& races, ReportFormat format) {
    // Race sites: unordered pair of the two sides' locations, in order of first appearance.
    QStringList siteOrder;
    QMap<QString, QList<const RaceDetails*>> bySite;
    for (const RaceDetails& race : races) {
        QString a = siteKey(race.sitesA);
        QString b = siteKey(race.sitesB);
        if (b < a) std::swap(a, b);
        const QString key = a + QStringLiteral(" <-> ") + b;
        if (!bySite.contains(key)) siteOrder << key;
        bySite[key].append(&race);
    }

    const QString title =
        QStringLiteral("Partition %1%2")
            .arg(partition.id)
            .arg(partition.first ? QStringLiteral(" (first partition)") : QString());
    QString out;
    if (format == ReportFormat::Text) {
        out += title + QLatin1Char('\n');
        out += QStringLiteral("Trace: %1 (%2 ordering)\n").arg(run.tracePath, run.ordering);
        out += countsText(partition) + QStringLiteral(", %1 race site%2\n")
                                           .arg(siteOrder.size())
                                           .arg(siteOrder.size() == 1 ? "" : "s");
        for (const QString& key : siteOrder) {
            out += QStringLiteral("\nRace site %1\n").arg(key);
            for (const RaceDetails* race : bySite.value(key)) {
                const RaceSummary& s = race->summary;
                out +=
                    QStringLiteral("  race %1  %2%3%4\n")
                        .arg(s.id)
                        .arg(statusName(s.status))
                        .arg(s.actual && *s.actual ? QStringLiteral(", actual") : QString())
                        .arg(s.tangle ? QStringLiteral(", tangle %1").arg(*s.tangle) : QString());
                out += QStringLiteral("    %1 #%2: %3\n")
                           .arg(s.threadA)
                           .arg(s.indexA)
                           .arg(sitesText(race->sitesA));
                out += QStringLiteral("    %1 #%2: %3\n")
                           .arg(s.threadB)
                           .arg(s.indexB)
                           .arg(sitesText(race->sitesB));
                if (!race->variables.isEmpty())
                    out += QStringLiteral("    on %1\n")
                               .arg(race->variables.join(QStringLiteral(", ")));
            }
        }
        return out;
    }

    out += QStringLiteral("## %1\n\n").arg(title);
    out += QStringLiteral("Trace `%1` (%2 ordering): %3.\n")
               .arg(run.tracePath, run.ordering, countsText(partition));
    for (const QString& key : siteOrder) {
        out += QStringLiteral("\n### Race site `%1`\n\n").arg(key);
        out += QStringLiteral(
            "| Race | Status | Event A | Sites A | Event B | Sites B | Variables |\n");
        out += QStringLiteral("|---:|---|---|---|---|---|---|\n");
        for (const RaceDetails* race : bySite.value(key)) {
            const RaceSummary& s = race->summary;
            QString status = statusName(s.status);
            if (s.actual && *s.actual) status += QStringLiteral(", actual");
            if (s.tangle) status += QStringLiteral(", tangle %1").arg(*s.tangle);
            out += QStringLiteral("| %1 | %2 | %3 #%4 | %5 | %6 #%7 | %8 | %9 |\n")
                       .arg(s.id)
                       .arg(mdCell(status))
                       .arg(mdCell(s.threadA))
                       .arg(s.indexA)
                       .arg(mdCell(sitesText(race->sitesA)))
                       .arg(mdCell(s.threadB))
                       .arg(s.indexB)
                       .arg(mdCell(sitesText(race->sitesB)))
                       .arg(mdCell(race->variables.join(QStringLiteral(", "))));
        }
    }
    return out;
}

} // namespace firstrace::gui
