#include "results_database.hpp"

#include "order_chain.hpp"

#include <QHash>

#include <algorithm>

namespace firstrace::gui {

namespace browser = firstrace::browser;

namespace {

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

QStringList qs(const std::vector<std::string>& texts) {
    QStringList list;
    list.reserve(qsizetype(texts.size()));
    for (const std::string& text : texts)
        list << qs(text);
    return list;
}

browser::RaceFilter toStore(const RaceFilter& filter) {
    browser::RaceFilter store;
    store.statuses.assign(filter.statuses.begin(), filter.statuses.end());
    store.actual_only = filter.actualOnly;
    store.file = filter.file.toStdString();
    store.thread = filter.thread.toStdString();
    store.search = filter.search.toStdString();
    return store;
}

StatusCounts fromStore(const browser::StatusCounts& store) {
    return {store.races, store.feasible, store.feasible_ec, store.unvalidated, store.actual};
}

SourceLocation fromStore(const browser::Frame& frame) {
    return {qs(frame.file), frame.line, frame.column, qs(frame.function)};
}

QList<SourceLocation> fromStore(const std::vector<browser::Frame>& frames) {
    QList<SourceLocation> list;
    for (const browser::Frame& frame : frames)
        list << fromStore(frame);
    return list;
}

EventKey fromStore(const browser::EventKey& key) {
    return {key.process, key.index};
}

RaceSiteRow fromStore(const browser::RaceSite& site) {
    RaceSiteRow row;
    row.pairId = site.pair_id;
    row.key = qs(site.key);
    row.first = fromStore(site.first);
    row.second = fromStore(site.second);
    row.group = site.group;
    row.leadRace = site.lead_race;
    row.leadPartition = site.lead_partition;
    row.variable = qs(site.variable);
    return row;
}

RaceSummary fromStore(const browser::RaceSummary& store) {
    RaceSummary race;
    race.id = store.id;
    race.orderKey = browser::order_key_of(store);
    race.partition = store.partition;
    race.firstPartition = store.first_partition;
    race.status = store.status;
    race.tangle = store.tangle;
    race.actual = store.actual;
    race.threadA = qs(store.thread_a);
    race.indexA = store.index_a;
    race.threadB = qs(store.thread_b);
    race.indexB = store.index_b;
    race.locationA = qs(store.location_a);
    race.locationB = qs(store.location_b);
    race.variables = qs(store.variables).join(QStringLiteral(", "));
    if (store.variable_count > qint64(store.variables.size()))
        race.variables += QStringLiteral(", \u2026 (%1)").arg(store.variable_count);
    return race;
}

EventDetails fromStore(const browser::EventDetails& store) {
    EventDetails event;
    event.process = store.process;
    event.thread = qs(store.thread);
    event.index = store.index;
    event.kind = qs(store.kind);
    event.clockStart = store.clock_start;
    event.clockFinish = store.clock_finish;
    event.context = fromStore(store.context);
    for (const browser::HeldLock& lock : store.locks_held) {
        event.locksHeld << qs(lock.name);
        event.lockAcquired << fromStore(lock.acquired);
    }
    event.parentThread = qs(store.parent_thread);
    event.creationStack = fromStore(store.creation_stack);
    return event;
}

QList<AccessSite> fromStore(const std::vector<browser::AccessSite>& sites) {
    QList<AccessSite> list;
    for (const browser::AccessSite& store : sites) {
        AccessSite site;
        site.access = fromStore(store.access);
        site.kind = qs(store.kind);
        site.stack = fromStore(store.stack);
        list << site;
    }
    return list;
}

RaceDetails fromStore(const browser::RaceDetails& store) {
    RaceDetails details;
    details.summary = fromStore(store.summary);
    details.a = fromStore(store.a);
    details.b = fromStore(store.b);
    details.variables = qs(store.variables);
    details.memory = qs(store.memory);
    if (store.heap_block)
        details.heapBlock =
            HeapBlockInfo{store.heap_block->lo, store.heap_block->hi, qs(store.heap_block->thread),
                          fromStore(store.heap_block->allocation_stack)};
    details.sitesA = fromStore(store.sites_a);
    details.sitesB = fromStore(store.sites_b);
    for (const qint64 partition : store.ordered_after.partitions)
        details.orderedAfter.partitions << partition;
    details.orderedAfter.race = store.ordered_after.race;
    for (const browser::OrderingStep& step : store.ordered_after.chain) {
        details.orderedAfter.chain << fromStore(step.event);
        QString text = QStringLiteral("%1 #%2 %3")
                           .arg(qs(step.thread))
                           .arg(step.event.index)
                           .arg(qs(step.kind));
        if (!step.object.empty()) text += QLatin1Char(' ') + qs(step.object);
        if (!step.at.empty())
            text += QStringLiteral(" at %1").arg(fromStore(step.at.front()).shortLocation());
        if (step.via != "start") text += QStringLiteral(" (%1)").arg(qs(step.via));
        details.orderedAfter.steps << text;
    }
    details.orderedAfter.stored = store.ordered_after.stored;
    return details;
}

// "/src/app/file.c:12" -> "file.c:12".
QString baseName(const QString& file) {
    const int slash = file.lastIndexOf(QLatin1Char('/'));
    return slash < 0 ? file : file.mid(slash + 1);
}

HistoryEvent fromStore(const browser::HistoryEvent& store) {
    HistoryEvent event;
    event.key = fromStore(store.key);
    event.kind = qs(store.kind);
    event.computation = store.kind == "computation";
    event.clockStart = store.clock_start;
    event.clockFinish = store.clock_finish;
    if (!event.computation) {
        const QString object = qs(store.object);
        event.label = object.isEmpty() ? event.kind : event.kind + QLatin1Char(' ') + object;
        if (!store.location.empty()) event.detail = baseName(qs(store.location));
        return event;
    }
    // Label: "workq.c:20,21,23" (the lines of each file once, in site order); detail: every
    // access site with its kind.
    QList<std::pair<QString, QStringList>> files;
    QStringList details;
    for (const browser::HistoryAccess& access : store.accesses) {
        const QString location = baseName(qs(access.location));
        const int colon = location.lastIndexOf(QLatin1Char(':'));
        const QString file = colon < 0 ? location : location.left(colon);
        const QString line = colon < 0 ? QString() : location.mid(colon + 1);
        auto it = std::find_if(files.begin(), files.end(),
                               [&](const auto& f) { return f.first == file; });
        if (it == files.end()) {
            files.append({file, {}});
            it = files.end() - 1;
        }
        if (!line.isEmpty() && !it->second.contains(line)) it->second << line;
        details << location + QLatin1Char(' ') + qs(access.kind);
    }
    QStringList parts;
    for (const auto& [file, lines] : files)
        parts << (lines.isEmpty() ? file : file + QLatin1Char(':') + lines.join(QLatin1Char(',')));
    event.label =
        parts.isEmpty() ? QStringLiteral("(no accesses)") : parts.join(QStringLiteral(" "));
    event.detail = details.join(QStringLiteral("; "));
    return event;
}

} // namespace

ResultsDatabase::ResultsDatabase(std::unique_ptr<browser::ResultsBrowser> browser)
    : browser_(std::move(browser)) {}

ResultsDatabase::OpenResult ResultsDatabase::open(const QString& path) {
    auto opened = browser::ResultsBrowser::open(path.toStdString());
    OpenResult result;
    result.error = opened.error;
    result.message = qs(opened.message);
    if (opened.browser) result.database.reset(new ResultsDatabase(std::move(opened.browser)));
    return result;
}

QString ResultsDatabase::path() const {
    return qs(browser_->path());
}

QList<StoredRun> ResultsDatabase::runs() const {
    QList<StoredRun> runs;
    for (const RunSummary& summary : browser_->runs()) {
        StoredRun run;
        run.id = summary.id;
        run.program = qs(summary.program.value_or(std::string()));
        run.tracePath = qs(summary.trace_path);
        run.ordering = QString::fromLatin1(to_string(summary.ordering));
        run.createdAt = qs(summary.analyzed_at);
        run.toolVersion = qs(summary.tool_version);
        run.truncated = summary.truncated;
        const AnalysisCounts& counts = summary.counts;
        run.events = qint64(counts.events);
        run.processes = qint64(counts.processes);
        run.races = qint64(counts.apparent);
        run.feasible = qint64(counts.feasible);
        run.feasibleEc = qint64(counts.feasible_ec);
        run.unvalidated = qint64(counts.unvalidated);
        run.actual = qint64(counts.actual);
        run.tangles = qint64(counts.tangles);
        run.partitions = qint64(counts.partitions);
        run.firstPartitions = qint64(counts.first_partitions);
        runs << run;
    }
    return runs;
}

QStringList ResultsDatabase::threadNames(qint64 run) const {
    return qs(browser_->thread_names(run));
}

QStringList ResultsDatabase::raceFiles(qint64 run) const {
    return qs(browser_->race_files(run));
}

StatusCounts ResultsDatabase::statusCounts(qint64 run, const RaceFilter& filter) const {
    return fromStore(browser_->status_counts(run, toStore(filter)));
}

QList<RaceSiteRow> ResultsDatabase::raceSites(qint64 run, const RaceFilter& filter,
                                              RaceSiteCursor& cursor, int limit) const {
    QList<RaceSiteRow> rows;
    for (const browser::RaceSite& site : browser_->race_sites(run, toStore(filter), cursor, limit))
        rows << fromStore(site);
    return rows;
}

RaceSiteRow ResultsDatabase::raceSite(qint64 run, qint64 pair, qint64 leadRace,
                                      qint64 leadPartition, RaceGroup group) const {
    return fromStore(browser_->race_site(run, pair, leadRace, leadPartition, group));
}

void ResultsDatabase::countSiteRaces(qint64 run, const RaceFilter& filter,
                                     QList<RaceSiteRow>& sites) const {
    std::vector<std::int64_t> pairs;
    for (const RaceSiteRow& site : sites)
        pairs.push_back(site.pairId);
    const auto counts = browser_->site_race_counts(run, toStore(filter), pairs);
    for (qsizetype i = 0; i < sites.size(); ++i) {
        sites[i].counts = fromStore(counts[std::size_t(i)]);
        sites[i].counted = true;
    }
}

QList<RaceSummary> ResultsDatabase::siteRaces(qint64 run, qint64 pair, const RaceFilter& filter,
                                              const RaceOrderKey& after, int limit) const {
    QList<RaceSummary> races;
    for (const browser::RaceSummary& race :
         browser_->site_races(run, pair, toStore(filter), after, limit))
        races << fromStore(race);
    return races;
}

QList<qint64> ResultsDatabase::pairsOfRace(qint64 run, qint64 id) const {
    QList<qint64> pairs;
    for (const std::int64_t pair : browser_->pairs_of_race(run, id))
        pairs << pair;
    return pairs;
}

std::optional<RaceOrderKey> ResultsDatabase::orderKey(qint64 run, qint64 id) const {
    const auto summary = browser_->race(run, id);
    if (!summary) return std::nullopt;
    return browser::order_key_of(*summary);
}

std::optional<RaceSummary> ResultsDatabase::race(qint64 run, qint64 id) const {
    const auto summary = browser_->race(run, id);
    if (!summary) return std::nullopt;
    return fromStore(*summary);
}

bool ResultsDatabase::raceMatches(qint64 run, qint64 id, const RaceFilter& filter) const {
    return browser_->race_matches(run, id, toStore(filter));
}

std::optional<RaceDetails> ResultsDatabase::raceDetails(qint64 run, qint64 id) const {
    const auto details = browser_->race_details(run, id);
    if (!details) return std::nullopt;
    return fromStore(*details);
}

QList<RaceDetails> ResultsDatabase::siteRaceDetails(qint64 run, qint64 pair,
                                                    const RaceFilter& filter, int limit) const {
    constexpr int kPage = 200;
    QList<RaceDetails> result;
    const browser::RaceFilter store = toStore(filter);
    RaceOrderKey after;
    while (result.size() < limit) {
        const auto page = browser_->site_races(run, pair, store, after,
                                               std::min(kPage, limit - int(result.size())));
        for (const browser::RaceSummary& race : page)
            if (auto details = browser_->race_details(run, race.id)) result << fromStore(*details);
        if (int(page.size()) < kPage) break;
        after = browser::order_key_of(page.back());
    }
    return result;
}

SourceText ResultsDatabase::sourceText(qint64 run, const QString& file) const {
    SourceText source;
    source.file = file;
    if (const auto text = browser_->source_text(run, file.toStdString())) {
        source.text = qs(*text);
        source.available = true;
    }
    return source;
}

HistoryData ResultsDatabase::history(qint64 run, qint64 id, int before, int after,
                                     std::optional<qint64> orderedAfter) const {
    const browser::History store = browser_->history(run, id, before, after, orderedAfter);
    HistoryData history;
    history.focusRace = store.focus_race;
    history.focusTangle = store.focus_tangle;
    for (const browser::HistoryLane& lane : store.lanes)
        history.lanes << HistoryLane{lane.process, qs(lane.name), lane.first_index, lane.last_index,
                                     lane.event_count};
    for (const browser::HistoryEvent& event : store.events)
        history.events << fromStore(event);
    for (const browser::HistoryEdge& edge : store.edges) {
        const HistoryEdgeKind kind = edge.kind == browser::HistoryEdgeKind::SharedData
                                         ? HistoryEdgeKind::SharedData
                                     : edge.kind == browser::HistoryEdgeKind::EventControl
                                         ? HistoryEdgeKind::EventControl
                                         : HistoryEdgeKind::Synchronization;
        history.edges << HistoryEdge{kind, fromStore(edge.from), fromStore(edge.to),
                                     edge.transitive};
    }
    for (const browser::HistoryRace& race : store.races)
        history.races << HistoryRace{race.id, fromStore(race.a), fromStore(race.b), race.status,
                                     race.tangle};
    history.orderedAfterRace = store.ordered_after_race;
    if (store.ordered_after_events) {
        const std::pair<EventKey, EventKey> earlier{fromStore(store.ordered_after_events->first),
                                                    fromStore(store.ordered_after_events->second)};
        const std::pair<EventKey, EventKey> later{fromStore(store.focus_events.first),
                                                  fromStore(store.focus_events.second)};
        // The chain the analysis stored, else the shortest one the events shown hold.
        for (const browser::EventKey& key : store.ordered_after_chain)
            history.orderChain << fromStore(key);
        if (history.orderChain.isEmpty()) history.orderChain = orderChain(history, earlier, later);
    }
    return history;
}

} // namespace firstrace::gui
