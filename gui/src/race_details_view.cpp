#include "race_details_view.hpp"

#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "call_stack.hpp"
#include "plain_tool_tip.hpp"
#include "source_view.hpp"
#include "status_icons.hpp"

namespace firstrace::gui {

namespace {

// The frame a person fixes: the innermost frame in the user's code, else the access itself.
SourceLocation headline(const AccessSite& site) {
    for (const SourceLocation& frame : site.stack)
        if (isUserFrame(frame)) return frame;
    return site.access;
}

QString esc(const QString& text) {
    return text.toHtmlEscaped();
}

QString frameTip(const SourceLocation& frame) {
    QString tip = frame.function.isEmpty() ? QStringLiteral("??") : frame.function;
    tip += QLatin1Char('\n') + frame.location();
    return tip;
}

QTreeWidgetItem* frameItem(const SourceLocation& frame, bool user) {
    auto* item = new QTreeWidgetItem(QStringList{frameText(frame)});
    item->setToolTip(0, plainToolTip(frameTip(frame)));
    if (!user) item->setForeground(0, QColor(0x75, 0x75, 0x75));
    return item;
}

// A stack as tree items: the user's frames, then one folded item holding the library frames.
void addStack(QTreeWidgetItem* parent, QTreeWidget* tree, const QList<SourceLocation>& stack) {
    const FoldedStack folded = foldStack(stack);
    auto add = [&](QTreeWidgetItem* item) {
        if (parent)
            parent->addChild(item);
        else
            tree->addTopLevelItem(item);
    };
    for (const SourceLocation& frame : folded.userFrames)
        add(frameItem(frame, true));
    if (folded.libraryFrames.isEmpty()) return;
    auto* library = new QTreeWidgetItem(
        QStringList{QObject::tr("%n library frame(s)", nullptr, int(folded.libraryFrames.size()))});
    library->setForeground(0, QColor(0x75, 0x75, 0x75));
    library->setToolTip(0, QObject::tr("Frames in system and standard library code, innermost "
                                       "first"));
    for (const SourceLocation& frame : folded.libraryFrames)
        library->addChild(frameItem(frame, false));
    add(library);
}

QWidget* sidePane(QWidget* parent, QLabel* info, QTreeWidget* stack, SourceView* source) {
    auto* pane = new QSplitter(Qt::Vertical, parent);
    auto* top = new QWidget(pane);
    auto* layout = new QVBoxLayout(top);
    layout->setContentsMargins(4, 0, 4, 0);
    layout->setSpacing(2);
    info->setTextFormat(Qt::RichText);
    info->setWordWrap(true);
    info->setTextInteractionFlags(Qt::TextSelectableByMouse);
    info->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    layout->addWidget(info);
    stack->setHeaderHidden(true);
    stack->setRootIsDecorated(true);
    stack->setUniformRowHeights(true);
    stack->setTextElideMode(Qt::ElideMiddle);
    stack->setMinimumHeight(4 * stack->fontMetrics().lineSpacing());
    layout->addWidget(stack, 1);
    pane->addWidget(top);
    pane->addWidget(source);
    pane->setChildrenCollapsible(false);
    pane->setStretchFactor(0, 2);
    pane->setStretchFactor(1, 3);
    return pane;
}

QString stackSummary(const QList<SourceLocation>& stack) {
    for (const SourceLocation& frame : stack)
        if (isUserFrame(frame)) return frameText(frame);
    return stack.isEmpty() ? QString() : frameText(stack.front());
}

} // namespace

std::pair<QString, QList<int>> racingLines(const QList<AccessSite>& sites) {
    QString file;
    for (const AccessSite& site : sites) {
        const SourceLocation line = headline(site);
        if (!line.file.isEmpty()) {
            file = line.file;
            break;
        }
    }
    QList<int> lines;
    for (const AccessSite& site : sites) {
        const SourceLocation line = headline(site);
        if (line.file == file && line.line > 0 && !lines.contains(line.line))
            lines.append(line.line);
    }
    std::sort(lines.begin(), lines.end());
    return {file, lines};
}

RaceDetailsView::RaceDetailsView(QWidget* parent)
    : QWidget(parent), summary_(new QLabel(this)), sides_(new QSplitter(Qt::Horizontal, this)),
      infoA_(new QLabel(this)), infoB_(new QLabel(this)), stackA_(new QTreeWidget(this)),
      stackB_(new QTreeWidget(this)), sourceA_(new SourceView(this)),
      sourceB_(new SourceView(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    summary_->setTextFormat(Qt::RichText);
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::LinksAccessibleByMouse);
    summary_->setContentsMargins(6, 4, 6, 2);
    connect(summary_, &QLabel::linkActivated, this, [this](const QString& link) {
        if (link.startsWith(QLatin1String("race:")))
            emit raceLinkActivated(link.mid(5).toLongLong());
    });
    layout->addWidget(summary_);
    sides_->addWidget(sidePane(sides_, infoA_, stackA_, sourceA_));
    sides_->addWidget(sidePane(sides_, infoB_, stackB_, sourceB_));
    sides_->setChildrenCollapsible(false);
    layout->addWidget(sides_, 1);
    clear();
}

void RaceDetailsView::clear() {
    race_ = RaceDetails();
    summary_->setText(tr("<i>Select a race in the tree.</i>"));
    infoA_->clear();
    infoB_->clear();
    stackA_->clear();
    stackB_->clear();
    sourceA_->clear();
    sourceB_->clear();
}

QString RaceDetailsView::summaryText() const {
    return summary_->text();
}
QString RaceDetailsView::sideText(int side) const {
    QString text = (side == 0 ? infoA_ : infoB_)->text();
    QTreeWidget* tree = stackTree(side);
    for (QTreeWidgetItemIterator it(tree); *it; ++it)
        text += QLatin1Char('\n') + (*it)->text(0);
    return text;
}

void RaceDetailsView::showRace(const RaceDetails& race) {
    race_ = race;
    const RaceSummary& s = race.summary;
    const QColor color = statusColor(s.status);
    QString html = QStringLiteral("<span style='font-size:large'><b>Race %1</b></span>&nbsp;&nbsp;"
                                  "<span style='color:%2'><b>%3</b></span>")
                       .arg(s.id)
                       .arg(color.name(), esc(statusName(s.status)));
    if (s.actual)
        html += *s.actual ? tr(" &middot; <b>actual</b> (the events overlapped)")
                          : tr(" &middot; not actual");
    html += s.firstPartition ? tr(" &middot; <b>first partition</b> %1").arg(s.partition)
                             : tr(" &middot; partition %1").arg(s.partition);
    if (s.tangle) html += tr(" &middot; tangle %1").arg(*s.tangle);
    if (!race.memory.isEmpty()) html += tr("<br>On <code>%1</code>").arg(esc(race.memory));
    if (race.heapBlock) {
        const HeapBlockInfo& block = *race.heapBlock;
        html += tr("<br>Heap block of %1 bytes at 0x%2")
                    .arg(block.hi - block.lo)
                    .arg(QString::number(block.lo, 16));
        const QString where = stackSummary(block.allocationStack);
        if (!where.isEmpty()) html += tr(", allocated at <code>%1</code>").arg(esc(where));
        if (!block.thread.isEmpty()) html += tr(" by %1").arg(esc(block.thread));
    }
    const OrderedAfter& after = race.orderedAfter;
    if (!s.firstPartition && (after.race || !after.partitions.isEmpty())) {
        QStringList partitions;
        for (qint64 p : after.partitions)
            partitions << QString::number(p);
        html += tr("<br>Ordered after ");
        if (after.race)
            html += tr("<a href='race:%1'>race %1</a> (partition %2)")
                        .arg(*after.race)
                        .arg(partitions.value(0));
        else
            html += tr("partition %1").arg(partitions.join(QStringLiteral(", ")));
        html += tr(": fix the earlier races first, this one may be their artifact.");
        if (!after.steps.isEmpty()) {
            // The chain of events that orders it (Def 8.1), as the analysis stored it.
            html += tr("<br><span style='color:#424242'>Through: %1</span>")
                        .arg(esc(after.steps.join(QStringLiteral(" \u2192 "))));
        }
    }
    html += QStringLiteral("<br><span style='color:#616161'>%1</span>")
                .arg(esc(statusDescription(s.status)));
    summary_->setText(html);
    showSide(0, race.a, race.sitesA);
    showSide(1, race.b, race.sitesB);
}

void RaceDetailsView::showSide(int side, const EventDetails& event,
                               const QList<AccessSite>& sites) {
    QString html = QStringLiteral("<table cellspacing='0' cellpadding='1'>");
    auto row = [&](const QString& key, const QString& value) {
        html +=
            QStringLiteral("<tr><td style='color:#616161; padding-right:8px' valign='top'>%1</td>"
                           "<td>%2</td></tr>")
                .arg(key, value);
    };
    QString thread =
        QStringLiteral("<b>%1</b> event #%2").arg(esc(event.thread), QString::number(event.index));
    if (!event.kind.isEmpty() && event.kind != QLatin1String("computation"))
        thread += QStringLiteral(" (%1)").arg(esc(event.kind));
    if (event.clockStart)
        thread += tr(" &middot; clock %1&ndash;%2")
                      .arg(*event.clockStart)
                      .arg(event.clockFinish.value_or(*event.clockStart));
    row(tr("Thread"), thread);
    if (!event.parentThread.isEmpty()) {
        QString created = tr("by %1").arg(esc(event.parentThread));
        const QString where = stackSummary(event.creationStack);
        if (!where.isEmpty()) created += tr(" at <code>%1</code>").arg(esc(where));
        row(tr("Created"), created);
    }
    row(tr("Locks held"), event.locksHeld.isEmpty()
                              ? tr("<i>none</i>")
                              : esc(event.locksHeld.join(QStringLiteral(", "))));
    html += QStringLiteral("</table>");
    (side == 0 ? infoA_ : infoB_)->setText(html);

    // Stacks: each access site (its kind and headline), its call stack below it; the event's
    // calling context when the sites carry none (schema version 1); the thread's creation.
    QTreeWidget* tree = stackTree(side);
    tree->clear();
    for (const AccessSite& site : sites) {
        const SourceLocation line = headline(site);
        auto* item = new QTreeWidgetItem(
            QStringList{QStringLiteral("%1 %2").arg(site.kind, frameText(line))});
        item->setToolTip(0, plainToolTip(frameTip(line)));
        QFont bold = item->font(0);
        bold.setBold(true);
        item->setFont(0, bold);
        tree->addTopLevelItem(item);
        if (site.stack.size() > 1) {
            addStack(item, tree, site.stack);
        } else if (&site == &sites.front() && !event.context.isEmpty()) {
            auto* context = new QTreeWidgetItem(QStringList{tr("calling context")});
            item->addChild(context);
            addStack(context, tree, event.context);
            context->setExpanded(true);
        }
        item->setExpanded(&site == &sites.front());
    }
    if (sites.isEmpty())
        tree->addTopLevelItem(new QTreeWidgetItem(QStringList{tr("no access sites recorded")}));
    for (qsizetype i = 0; i < event.lockAcquired.size(); ++i) {
        if (event.lockAcquired[i].isEmpty()) continue;
        auto* lock = new QTreeWidgetItem(
            QStringList{tr("%1 held, acquired at").arg(event.locksHeld.value(i))});
        lock->setForeground(0, QColor(0x42, 0x42, 0x42));
        tree->addTopLevelItem(lock);
        addStack(lock, tree, event.lockAcquired[i]);
    }
    if (!event.creationStack.isEmpty()) {
        auto* created = new QTreeWidgetItem(
            QStringList{tr("thread %1 created by %2").arg(event.thread, event.parentThread)});
        created->setForeground(0, QColor(0x42, 0x42, 0x42));
        tree->addTopLevelItem(created);
        addStack(created, tree, event.creationStack);
    }

    const auto [file, lines] = racingLines(sites);
    SourceView* view = side == 0 ? sourceA_ : sourceB_;
    SourceText text;
    if (!file.isEmpty() && sources_) text = sources_(file);
    view->showSource(file, text.text, text.available, lines, statusColor(race_.summary.status));
}

} // namespace firstrace::gui
