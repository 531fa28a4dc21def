#include "results_fixture.hpp"

#include <QDir>
#include <QFile>
#include <QStringList>

#include <stdexcept>

#include "firstrace/analysis.hpp"
#include "firstrace/results_database.hpp"
#include "firstrace/trace_loader.hpp"
#include "synthetic_run.hpp"

namespace firstrace::gui::testing {

QString workqSource() {
    QStringList lines;
    for (int i = 1; i <= 60; ++i) {
        switch (i) {
        case 1:
            lines << QStringLiteral("/* workq.c: Netzer's running example (thesis Figure 2.1). */");
            break;
        case 20:
            lines << QStringLiteral("    int head = q.head;                 /* remove a region */");
            break;
        case 21:
            lines << QStringLiteral("    int lo = q.rec[head].lo;");
            break;
        case 22:
            lines << QStringLiteral("    int hi = q.rec[head + 1].hi;");
            break;
        case 23:
            lines << QStringLiteral("    q.head = head + 1;");
            break;
        case 30:
            lines << QStringLiteral("        a[i] = init(i);                 /* initial work */");
            break;
        case 31:
            lines << QStringLiteral(
                "    pthread_mutex_lock(&private_lock); pthread_mutex_unlock(&private_lock);");
            break;
        case 40:
            lines << QStringLiteral(
                "        a[i] = work(a[i]);              /* work on the region */");
            break;
        case 50:
            lines << QStringLiteral("    pthread_create(&left, NULL, child, &left_args);");
            break;
        case 51:
            lines << QStringLiteral("    pthread_create(&right, NULL, child, &right_args);");
            break;
        case 52:
            lines << QStringLiteral("    pthread_join(left, NULL);");
            break;
        case 53:
            lines << QStringLiteral("    pthread_join(right, NULL);");
            break;
        default:
            lines << QStringLiteral("    /* line %1 */").arg(i);
        }
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

qint64 writeFigureRun(const QString& path, const QString& sourceDirectory) {
    // workq.c as the trace's locations name it, in a directory the writer searches.
    QDir().mkpath(sourceDirectory);
    QFile source(QDir(sourceDirectory).filePath(QStringLiteral("workq.c")));
    if (!source.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
        source.write(workqSource().toUtf8()) < 0)
        throw std::runtime_error("cannot write " + source.fileName().toStdString());
    source.close();
    const Trace trace = load_trace(FIRSTRACE_SAMPLES "/traces/figure-2-1.std");
    const AnalysisResult result = analyze(trace);
    DatabaseWriteOptions options;
    options.source_directories = {sourceDirectory.toStdString()};
    RunInfo info;
    info.analyzed_at = "2026-11-22T11:00:00Z";
    return write_run(path.toStdString(), trace, result, info, options);
}

qint64 writeSyntheticRun(const QString& path, qint64 races) {
    const bench::SyntheticRun run = bench::make_synthetic_run(std::uint64_t(races));
    DatabaseWriteOptions options;
    options.store_sources = false;
    return write_run(path.toStdString(), run.trace, run.result, RunInfo(), options);
}

void copyWithHeader(const QString& from, const QString& to, std::optional<quint32> userVersion,
                    std::optional<quint32> applicationId) {
    QFile source(from);
    if (!source.open(QIODevice::ReadOnly)) throw std::runtime_error("cannot read the database");
    QByteArray bytes = source.readAll();
    auto put = [&](int offset, quint32 value) {
        for (int i = 0; i < 4; ++i)
            bytes[offset + i] = char((value >> (24 - 8 * i)) & 0xff);
    };
    if (userVersion) put(60, *userVersion);
    if (applicationId) put(68, *applicationId);
    QFile target(to);
    if (!target.open(QIODevice::WriteOnly) || target.write(bytes) != bytes.size())
        throw std::runtime_error("cannot write the database copy");
}

} // namespace firstrace::gui::testing
