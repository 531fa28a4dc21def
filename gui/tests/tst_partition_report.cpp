// Text and Markdown reports of a partition: race sites group races by unordered location pair.
#include <QTest>

#include "partition_report.hpp"

using namespace firstrace::gui;

namespace {

RaceDetails race(qint64 id, RaceStatus status, const QString& a, const QString& b, int lineA,
                 int lineB) {
    RaceDetails r;
    r.summary.id = id;
    r.summary.status = status;
    r.summary.threadA = a;
    r.summary.indexA = id;
    r.summary.threadB = b;
    r.summary.indexB = id + 1;
    r.sitesA = {
        SourceSite{QStringLiteral("q.c"), lineA, 1, QStringLiteral("f"), QStringLiteral("write")}};
    r.sitesB = {
        SourceSite{QStringLiteral("q.c"), lineB, 1, QStringLiteral("g"), QStringLiteral("read")}};
    r.variables = {QStringLiteral("x|y")};
    return r;
}

} // namespace

class PartitionReportTest : public QObject {
    Q_OBJECT
    RunInfo run_ = [] {
        RunInfo run;
        run.tracePath = QStringLiteral("app.trace");
        run.ordering = QStringLiteral("complete");
        return run;
    }();
    PartitionSummary partition_{4, true, 3, 2, 0, 1, 1, true};
    QList<RaceDetails> races_{race(10, RaceStatus::Feasible, "T1", "T2", 12, 30),
                              race(11, RaceStatus::Unvalidated, "T3", "T1", 30, 12),
                              race(12, RaceStatus::Feasible, "T2", "T3", 40, 40)};

  private slots:
    void text() {
        QList<RaceDetails> races = races_;
        races[0].summary.actual = true;
        races[1].summary.tangle = 5;
        const QString report = partitionReport(run_, partition_, races, ReportFormat::Text);
        QVERIFY(report.startsWith(QStringLiteral(
            "Partition 4 (first partition)\nTrace: app.trace (complete ordering)\n")));
        QVERIFY(report.contains(
            QStringLiteral("3 races: 2 feasible, 1 unvalidated, 1 actual, 2 race sites")));
        // Races 10 and 11 share the site pair q.c:12 / q.c:30 although their sides are swapped.
        QVERIFY(report.contains(
            QStringLiteral("Race site q.c:12 <-> q.c:30\n  race 10  feasible, actual\n"
                           "    T1 #10: q.c:12 (write)\n    T2 #11: q.c:30 (read)\n"
                           "    on x|y\n  race 11  unvalidated, tangle 5\n")));
        QVERIFY(
            report.contains(QStringLiteral("Race site q.c:40 <-> q.c:40\n  race 12  feasible\n")));
    }

    void markdown() {
        const QString report = partitionReport(run_, partition_, races_, ReportFormat::Markdown);
        QVERIFY(report.startsWith(
            QStringLiteral("## Partition 4 (first partition)\n\nTrace `app.trace`")));
        QVERIFY(report.contains(QStringLiteral("### Race site `q.c:12 <-> q.c:30`")));
        QVERIFY(report.contains(QStringLiteral(
            "| 10 | feasible | T1 #10 | q.c:12 (write) | T2 #11 | q.c:30 (read) | x\\|y |")));
        QCOMPARE(report.count(QStringLiteral("|---:|")), 2); // one table per race site
    }

    void unknownLocations() {
        RaceDetails r = race(1, RaceStatus::FeasibleEc, "A", "B", 0, 0);
        r.sitesA.clear();
        r.sitesB[0].file.clear();
        const QString report =
            partitionReport(run_, {2, false, 1, 0, 1, 0, 0, true}, {r}, ReportFormat::Text);
        QVERIFY(report.startsWith(QStringLiteral("Partition 2\n")));
        QVERIFY(report.contains(QStringLiteral("Race site <unknown> <-> <unknown>")));
        QVERIFY(report.contains(QStringLiteral("1 race: 1 feasible-ec, 1 race site")));
    }
};

QTEST_GUILESS_MAIN(PartitionReportTest)
#include "tst_partition_report.moc"
