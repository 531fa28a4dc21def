// The history view on its own: layout columns follow process order and synchronization edges,
// the time axis follows the clock readings, only the selected race's edges are drawn until the
// other races are switched on, the dependence edges and the tangle are switchable, zooming
// changes the scale (never further out than the whole history), lane headers stay fixed.
#include <QCheckBox>
#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>

#include "history_layout.hpp"
#include "history_view.hpp"

using namespace firstrace::gui;

namespace {

// P0: e0 (fork P1), e1 computation, e2 (join P1); P1: e0 computation, e1 release L;
// P2: e0 acquire L, e1 computation. Races P0#1 - P1#0 (tangle 3) and P1#0 - P2#1.
HistoryData sample() {
    HistoryData h;
    h.focusRace = 7;
    h.focusTangle = 3;
    h.lanes = {{0, QStringLiteral("main"), 0, 2, 3},
               {1, QStringLiteral("worker"), 0, 1, 2},
               {2, QStringLiteral("helper"), 0, 1, 2}};
    auto event = [](qint64 p, qint64 i, bool computation, const char* label) {
        HistoryEvent e;
        e.key = {p, i};
        e.computation = computation;
        e.kind = computation ? QStringLiteral("computation") : QStringLiteral("sync");
        e.label = QString::fromLatin1(label);
        return e;
    };
    h.events = {event(0, 0, false, "fork worker"), event(0, 1, true, "main.c:10"),
                event(0, 2, false, "join worker"), event(1, 0, true, "worker.c:5"),
                event(1, 1, false, "release L"),   event(2, 0, false, "acquire L"),
                event(2, 1, true, "helper.c:7")};
    h.edges = {{HistoryEdgeKind::Synchronization, {0, 0}, {1, 0}, false},
               {HistoryEdgeKind::Synchronization, {1, 1}, {0, 2}, false},
               {HistoryEdgeKind::Synchronization, {1, 1}, {2, 0}, false},
               {HistoryEdgeKind::SharedData, {0, 1}, {1, 0}, false},
               {HistoryEdgeKind::SharedData, {1, 0}, {0, 1}, true},
               {HistoryEdgeKind::EventControl, {1, 0}, {2, 1}, false}};
    h.races = {{7, {0, 1}, {1, 0}, RaceStatus::Unvalidated, 3},
               {9, {1, 0}, {2, 1}, RaceStatus::Feasible, {}}};
    return h;
}

} // namespace

class HistoryViewTest : public QObject {
    Q_OBJECT
  private slots:
    void layoutFollowsSynchronization() {
        const HistoryLayout layout = layoutHistory(sample());
        QVERIFY(layout.consistent);
        QCOMPARE(layout.laneOf.value(2), 2);
        auto col = [&](qint64 p, qint64 i) { return layout.columnOf.value(EventKey{p, i}); };
        QCOMPARE(col(0, 0), 0);
        QCOMPARE(col(1, 0), 1); // after the fork
        QCOMPARE(col(1, 1), 2);
        QCOMPARE(col(2, 0), 3); // after the release
        QCOMPARE(col(2, 1), 4);
        QCOMPARE(col(0, 1), 1); // process order only
        QCOMPARE(col(0, 2), 3); // join after the release
        QCOMPARE(layout.columns, 5);
        for (const HistoryEdge& edge : sample().edges)
            if (edge.kind == HistoryEdgeKind::Synchronization)
                QVERIFY(layout.columnOf.value(edge.from) < layout.columnOf.value(edge.to));
    }

    void layoutSurvivesCycles() {
        HistoryData h = sample();
        h.edges.append({HistoryEdgeKind::Synchronization, {2, 1}, {1, 0}, false}); // bad data
        const HistoryLayout layout = layoutHistory(h);
        QVERIFY(!layout.consistent);
        QCOMPARE(layout.columnOf.size(), h.events.size());
    }

    void togglesDependenceEdgesAndTangle() {
        HistoryView view;
        view.resize(900, 400);
        view.show();
        view.setHistory(sample());
        QCOMPARE(view.visibleEdgeCount(HistoryEdgeKind::Synchronization), 3);
        view.setSharedDataVisible(false);
        view.setEventControlVisible(false);
        QCOMPARE(view.visibleEdgeCount(HistoryEdgeKind::SharedData), 0);
        QCOMPARE(view.visibleEdgeCount(HistoryEdgeKind::EventControl), 0);
        view.setSharedDataVisible(true);
        QCOMPARE(view.visibleEdgeCount(HistoryEdgeKind::SharedData), 2);
        QCOMPARE(view.visibleEdgeCount(HistoryEdgeKind::EventControl), 0);
        view.setEventControlVisible(true);
        QCOMPARE(view.visibleEdgeCount(HistoryEdgeKind::EventControl), 1);
        // The tangle halo marks the two events of race 7 only.
        auto halos = [&] {
            int count = 0;
            for (QGraphicsItem* item : view.canvas()->scene()->items())
                if (item->toolTip() == QStringLiteral("In tangle 3") && item->isVisible()) ++count;
            return count;
        };
        view.setTangleVisible(true);
        QCOMPARE(halos(), 2);
        view.setTangleVisible(false);
        QCOMPARE(halos(), 0);
        QVERIFY(view.raceEdgeMidpoint(7));
        QVERIFY(view.raceEdgeMidpoint(9));
        QVERIFY(!view.raceEdgeMidpoint(8));
    }

    void onlyTheSelectedRaceByDefault() {
        HistoryView view;
        view.resize(900, 400);
        view.show();
        view.setHistory(sample());
        QCOMPARE(view.visibleRaceEdgeCount(), 1);
        view.setOtherRacesVisible(true);
        QCOMPARE(view.visibleRaceEdgeCount(), 2);
        view.setSharedDataVisible(true);
        view.zoomIn();
        // A new database starts from the defaults again.
        view.resetViewSettings();
        view.setHistory(sample());
        QVERIFY(!view.otherRacesVisible());
        QVERIFY(!view.sharedDataVisible());
        QVERIFY(view.tangleVisible());
        QCOMPARE(view.visibleRaceEdgeCount(), 1);
    }

    void timeAxisFollowsTheClock() {
        HistoryData history = sample();
        QVERIFY(!history.hasClock());
        // main#1 [10,40] overlaps worker#0 [20,30]; helper#1 [50,60] comes after both.
        const QList<std::pair<qint64, qint64>> clocks{{1, 1},   {10, 40}, {70, 70}, {20, 30},
                                                      {45, 45}, {46, 46}, {50, 60}};
        for (int i = 0; i < history.events.size(); ++i) {
            history.events[i].clockStart = clocks[i].first;
            history.events[i].clockFinish = clocks[i].second;
        }
        QVERIFY(history.hasClock());
        const TimeAxisLayout time = layoutTimeAxis(history);
        QCOMPARE(time.span.value({0, 1}), (std::pair<int, int>(1, 4)));
        QCOMPARE(time.span.value({1, 0}), (std::pair<int, int>(2, 3)));
        HistoryView view;
        view.resize(900, 400);
        view.show();
        view.setHistory(history);
        QVERIFY(view.timeAxisActive());
        // Overlapping events overlap on screen; a later one lies to the right.
        const qreal mainX = view.eventPosition({0, 1})->x();
        const qreal workerX = view.eventPosition({1, 0})->x();
        const qreal helperX = view.eventPosition({2, 1})->x();
        QVERIFY(std::abs(mainX - workerX) < 64);
        QVERIFY(helperX > mainX && helperX > workerX);
        // The index layout instead: columns along the synchronization order.
        view.setTimeAxis(false);
        QVERIFY(!view.timeAxisActive());
        QVERIFY(view.eventPosition({0, 1})->x() != mainX ||
                view.eventPosition({1, 0})->x() != workerX);
    }

    void drawsTheChainOrderingTheRace() {
        HistoryData history = sample();
        history.focusRace = 9;
        history.orderedAfterRace = 7;
        history.orderChain = {{1, 0}, {1, 1}, {2, 0}, {2, 1}};
        HistoryView view;
        view.resize(900, 400);
        view.show();
        view.setHistory(history);
        QCOMPARE(view.drawnOrderChain(), history.orderChain);
        QCOMPARE(view.visibleRaceEdgeCount(), 3); // race 9, race 7 and its "ordered after" label
        bool label = false;
        for (QGraphicsItem* item : view.canvas()->scene()->items())
            if (auto* text = dynamic_cast<QGraphicsSimpleTextItem*>(item))
                label |= text->text() == QStringLiteral("ordered after race 7");
        QVERIFY(label);
    }

    void laneHeadersStayFixed() {
        HistoryView view;
        view.resize(500, 400);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setHistory(sample());
        const auto& headers = view.canvas()->laneHeaders();
        QCOMPARE(headers.size(), 3);
        QCOMPARE(headers[0].name, QStringLiteral("main"));
        // Scrolled to the right end, the header column is still painted at the left edge.
        view.zoomIn();
        view.zoomIn();
        view.canvas()->horizontalScrollBar()->setValue(
            view.canvas()->horizontalScrollBar()->maximum());
        const QImage image = view.canvas()->viewport()->grab().toImage();
        const int y =
            view.canvas()->mapFromScene(QPointF(0, (headers[1].top + headers[1].bottom) / 2)).y();
        QCOMPARE(image.pixelColor(3, y), QColor(0xe9, 0xed, 0xf1)); // the header band of lane 1
    }

    void clickingEmitsRaceAndEvent() {
        HistoryView view;
        view.resize(1000, 400);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setHistory(sample());
        view.setOtherRacesVisible(true); // race 9 is not the selected one
        QSignalSpy races(&view, &HistoryView::raceActivated);
        QSignalSpy events(&view, &HistoryView::eventActivated);
        HistoryCanvas* canvas = view.canvas();
        const QPointF mid = *view.raceEdgeMidpoint(9);
        canvas->centerOn(mid);
        QTest::mouseClick(canvas->viewport(), Qt::LeftButton, {}, canvas->mapFromScene(mid));
        QCOMPARE(races.count(), 1);
        QCOMPARE(races.front().front().toLongLong(), 9);
        const QPointF box = *view.eventPosition({2, 0});
        canvas->centerOn(box);
        QTest::mouseClick(canvas->viewport(), Qt::LeftButton, {}, canvas->mapFromScene(box));
        QCOMPARE(events.count(), 1);
        QCOMPARE(events.front().front().value<EventKey>(), (EventKey{2, 0}));
        QVERIFY(view.eventInfoText().startsWith(QStringLiteral("helper event #0")));
        // A drag pans and selects nothing.
        const QPoint from = canvas->mapFromScene(box);
        QTest::mousePress(canvas->viewport(), Qt::LeftButton, {}, from);
        QTest::mouseMove(canvas->viewport(), from + QPoint(60, 0));
        QTest::mouseRelease(canvas->viewport(), Qt::LeftButton, {}, from + QPoint(60, 0));
        QCOMPARE(events.count(), 1);
    }

    void zooms() {
        HistoryView view;
        view.resize(800, 400);
        view.show();
        view.setHistory(sample());
        const qreal before = view.canvas()->transform().m11();
        view.zoomIn();
        QVERIFY(view.canvas()->transform().m11() > before);
        for (int i = 0; i < 30; ++i)
            view.zoomIn();
        QCOMPARE(view.canvas()->transform().m11(), 4.0); // bounded
        for (int i = 0; i < 40; ++i)
            view.zoomOut();
        // No further out than the whole history fits the view.
        const QRectF bounds = view.canvas()->scene()->itemsBoundingRect();
        const QSize viewport = view.canvas()->viewport()->size();
        const qreal fit =
            std::min(viewport.width() / bounds.width(), viewport.height() / bounds.height());
        QVERIFY(view.canvas()->transform().m11() >= std::min(fit, 1.0) - 1e-9);
        view.clear();
        QVERIFY(view.canvas()->scene()->items().isEmpty());
    }
};

Q_DECLARE_METATYPE(firstrace::gui::EventKey)

QTEST_MAIN(HistoryViewTest)
#include "tst_history_view.moc"
