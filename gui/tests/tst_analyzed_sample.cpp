// End to end: `firstrace analyze samples/traces/figure-2-1.std -o DB` writes a database that the
// browser reads with exactly the facts of `analyze --format json` (races, statuses, partitions,
// variables, access sites; every race under a race site), and `firstrace-gui --screenshot`
// renders its first race. When the tracer is built, the same for the workq sample compiled with
// firstrace-cc and recorded: the race selected first is on the lines marked `// RACE`, with the
// source text in the database.
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include "results_database.hpp"
#include "screenshot.hpp"

using namespace firstrace::gui;

class AnalyzedSampleTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString firstrace_;
    QString trace_;
    QString db_;
    QJsonObject json_;

    QByteArray run(const QString& program, const QStringList& arguments, int* code) {
        QProcess process;
        process.setWorkingDirectory(dir_.path());
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("QT_QPA_PLATFORM"));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir_.filePath(QStringLiteral("config")));
        process.setProcessEnvironment(env);
        process.start(program, arguments);
        *code = process.waitForFinished(120000) && process.exitStatus() == QProcess::NormalExit
                    ? process.exitCode()
                    : -1;
        if (*code != 0) qWarning().noquote() << process.readAllStandardError();
        return process.readAllStandardOutput();
    }

  private slots:
    void initTestCase() {
        firstrace_ = qEnvironmentVariable("FIRSTRACE_BINARY", QStringLiteral(FIRSTRACE_BINARY));
        if (firstrace_.isEmpty() || !QFileInfo(firstrace_).isExecutable())
            QSKIP("the firstrace command line is not part of this build");
        trace_ = QStringLiteral(FIRSTRACE_SAMPLES "/traces/figure-2-1.std");
        QVERIFY(QFileInfo::exists(trace_));
        db_ = dir_.filePath(QStringLiteral("figure.db"));
        int code = 0;
        run(firstrace_,
            {QStringLiteral("analyze"), trace_, QStringLiteral("-o"), db_, QStringLiteral("-q")},
            &code);
        QCOMPARE(code, 0);
        const QByteArray json = run(firstrace_,
                                    {QStringLiteral("analyze"), trace_, QStringLiteral("--format"),
                                     QStringLiteral("json"), QStringLiteral("-q")},
                                    &code);
        QCOMPARE(code, 0);
        json_ = QJsonDocument::fromJson(json).object();
        QVERIFY(!json_.isEmpty());
    }

    void databaseHoldsTheFactsOfTheJsonReport() {
        auto opened = ResultsDatabase::open(db_);
        QVERIFY2(opened.database, qPrintable(opened.message));
        ResultsDatabase& db = *opened.database;
        const auto runs = db.runs();
        QCOMPARE(runs.size(), 1);
        const StoredRun& run = runs.front();
        const QJsonObject counts = json_.value(QStringLiteral("counts")).toObject();
        QCOMPARE(run.races, counts.value(QStringLiteral("apparent")).toInteger());
        QCOMPARE(run.feasible, counts.value(QStringLiteral("feasible")).toInteger());
        QCOMPARE(run.unvalidated, counts.value(QStringLiteral("unvalidated")).toInteger());
        QCOMPARE(run.partitions, counts.value(QStringLiteral("partitions")).toInteger());
        QCOMPARE(run.firstPartitions, counts.value(QStringLiteral("first_partitions")).toInteger());
        QCOMPARE(run.ordering, json_.value(QStringLiteral("ordering")).toString());

        // Every race of the JSON report is listed under a race site, in the tree's order:
        // sites of first partitions first.
        QSet<qint64> listed;
        RaceSiteCursor cursor;
        bool seenLater = false;
        while (!cursor.done) {
            for (const RaceSiteRow& site : db.raceSites(run.id, RaceFilter(), cursor, 2)) {
                const bool first = site.group == RaceGroup::FirstPartition;
                QVERIFY(!(first && seenLater));
                seenLater |= !first;
                for (const RaceSummary& race :
                     db.siteRaces(run.id, site.pairId, RaceFilter(), RaceOrderKey(), 1000))
                    listed << race.id;
            }
        }
        const QJsonArray races = json_.value(QStringLiteral("races")).toArray();
        QCOMPARE(listed.size(), races.size());

        // Every race, both sides.
        for (const auto& value : json_.value(QStringLiteral("races")).toArray()) {
            const QJsonObject r = value.toObject();
            const auto details = db.raceDetails(run.id, r.value(QStringLiteral("id")).toInteger());
            QVERIFY(details);
            const RaceSummary& s = details->summary;
            QCOMPARE(statusName(s.status), r.value(QStringLiteral("status")).toString());
            QCOMPARE(s.partition, r.value(QStringLiteral("partition")).toInteger());
            QCOMPARE(s.tangle.has_value(), !r.value(QStringLiteral("tangle")).isNull());
            if (!r.value(QStringLiteral("actual")).isNull())
                QCOMPARE(s.actual, std::optional<bool>(r.value(QStringLiteral("actual")).toBool()));
            const QJsonObject a = r.value(QStringLiteral("a")).toObject();
            const QJsonObject b = r.value(QStringLiteral("b")).toObject();
            QCOMPARE(details->a.thread, a.value(QStringLiteral("thread")).toString());
            QCOMPARE(details->a.index, a.value(QStringLiteral("index")).toInteger());
            QCOMPARE(details->b.thread, b.value(QStringLiteral("thread")).toString());
            QCOMPARE(details->b.index, b.value(QStringLiteral("index")).toInteger());
            QStringList variables;
            for (const auto& v : r.value(QStringLiteral("variables")).toArray())
                variables << v.toString();
            QCOMPARE(details->variables, variables);
            const QJsonObject sites = r.value(QStringLiteral("sites")).toObject();
            for (const auto& [side, list] : {std::pair{QStringLiteral("a"), details->sitesA},
                                             std::pair{QStringLiteral("b"), details->sitesB}}) {
                const QJsonArray expected = sites.value(side).toArray();
                QCOMPARE(list.size(), expected.size());
                for (int i = 0; i < list.size(); ++i) {
                    const QJsonObject site = expected[i].toObject();
                    QCOMPARE(list[i].access.file, site.value(QStringLiteral("file")).toString());
                    QCOMPARE(list[i].access.line, site.value(QStringLiteral("line")).toInt());
                    QCOMPARE(list[i].kind, site.value(QStringLiteral("kind")).toString());
                }
            }
            // The history around it holds both events and the race edge.
            const HistoryData history = db.history(run.id, s.id);
            QVERIFY(std::any_of(history.races.begin(), history.races.end(),
                                [&](const HistoryRace& h) { return h.id == s.id; }));
            QVERIFY(!history.edges.isEmpty());
        }
    }

    void recordedWorkqSample() {
        const QString bin = QFileInfo(firstrace_).absolutePath();
        const QString cc = bin + QStringLiteral("/firstrace-cc");
        if (!QFileInfo(cc).isExecutable()) QSKIP("the tracer is not part of this build");
        const QString source = QStringLiteral(FIRSTRACE_SAMPLES "/workq-racy.c");
        const QString exe = dir_.filePath(QStringLiteral("workq-racy"));
        const QString trace = dir_.filePath(QStringLiteral("workq.trace"));
        const QString db = dir_.filePath(QStringLiteral("workq.db"));
        int code = 0;
        run(cc,
            {QStringLiteral("-g"), QStringLiteral("-O0"), QStringLiteral("-pthread"), source,
             QStringLiteral("-o"), exe},
            &code);
        QCOMPARE(code, 0);
        run(firstrace_,
            {QStringLiteral("record"), QStringLiteral("-q"), QStringLiteral("-o"), trace,
             QStringLiteral("--"), exe},
            &code);
        QCOMPARE(code, 0);
        run(firstrace_,
            {QStringLiteral("analyze"), trace, QStringLiteral("-o"), db, QStringLiteral("-q")},
            &code);
        QCOMPARE(code, 0);

        // The lines marked as racing in the sample.
        QFile file(source);
        QVERIFY(file.open(QIODevice::ReadOnly | QIODevice::Text));
        const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'));
        QList<int> marked;
        for (int i = 0; i < lines.size(); ++i)
            if (lines[i].contains(QStringLiteral("// RACE")) &&
                !lines[i].contains(QStringLiteral("// RACE?")))
                marked << i + 1;
        QVERIFY(!marked.isEmpty());

        auto opened = ResultsDatabase::open(db);
        QVERIFY2(opened.database, qPrintable(opened.message));
        const qint64 runId = opened.database->runs().back().id;
        RaceSiteCursor cursor;
        const auto sites = opened.database->raceSites(runId, RaceFilter(), cursor, 1);
        QVERIFY(!sites.isEmpty());
        QCOMPARE(sites.front().group, RaceGroup::FirstPartition);
        const auto details = opened.database->raceDetails(runId, sites.front().leadRace);
        QVERIFY(details);
        QCOMPARE(details->summary.status, RaceStatus::Feasible);
        QList<int> racing;
        for (const AccessSite& site : details->sitesA + details->sitesB) {
            QVERIFY2(site.access.file.endsWith(QStringLiteral("workq-racy.c")),
                     qPrintable(site.access.file));
            racing << site.access.line;
        }
        for (int line : racing)
            QVERIFY2(marked.contains(line), qPrintable(QString::number(line)));
        const SourceText text =
            opened.database->sourceText(runId, details->sitesA.front().access.file);
        QVERIFY(text.available);
        QCOMPARE(text.text.split(QLatin1Char('\n')).value(racing.front() - 1),
                 lines.value(racing.front() - 1));

        const QString png = dir_.filePath(QStringLiteral("workq.png"));
        run(QStringLiteral(FIRSTRACE_GUI_BINARY), {QStringLiteral("--screenshot"), png, db}, &code);
        QCOMPARE(code, 0);
        QVERIFY(hasContent(QImage(png)));
    }

    void screenshotOfTheFirstRace() {
        const QString png = dir_.filePath(QStringLiteral("first-race.png"));
        int code = 0;
        run(QStringLiteral(FIRSTRACE_GUI_BINARY), {QStringLiteral("--screenshot"), png, db_},
            &code);
        QCOMPARE(code, 0);
        const QImage image(png);
        QVERIFY(!image.isNull());
        QVERIFY(hasContent(image));
    }
};

QTEST_GUILESS_MAIN(AnalyzedSampleTest)
#include "tst_analyzed_sample.moc"
