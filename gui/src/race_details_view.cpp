#include "race_details_view.hpp"

#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>

#include "source_view.hpp"
#include "status_icons.hpp"

namespace firstrace::gui {

std::pair<QString, QList<int>> racingLines(const QList<SourceSite>& sites) {
    QString file;
    for (const SourceSite& site : sites)
        if (!site.file.isEmpty()) {
            file = site.file;
            break;
        }
    QList<int> lines;
    for (const SourceSite& site : sites)
        if (site.file == file && site.line > 0 && !lines.contains(site.line))
            lines.append(site.line);
    std::sort(lines.begin(), lines.end());
    return {file, lines};
}

namespace {

QString esc(const QString& text) {
    return text.toHtmlEscaped();
}

QWidget* sidePane(QWidget* parent, QLabel* info, SourceView* source) {
    auto* pane = new QWidget(parent);
    auto* layout = new QVBoxLayout(pane);
    layout->setContentsMargins(4, 0, 4, 0);
    layout->setSpacing(4);
    info->setTextFormat(Qt::RichText);
    info->setWordWrap(true);
    info->setTextInteractionFlags(Qt::TextSelectableByMouse);
    info->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    layout->addWidget(info);
    layout->addWidget(source, 1);
    return pane;
}

} // namespace

RaceDetailsView::RaceDetailsView(QWidget* parent)
    : QWidget(parent), summary_(new QLabel(this)), sides_(new QSplitter(Qt::Horizontal, this)),
      infoA_(new QLabel(this)), infoB_(new QLabel(this)), sourceA_(new SourceView(this)),
      sourceB_(new SourceView(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    summary_->setTextFormat(Qt::RichText);
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    summary_->setContentsMargins(6, 4, 6, 2);
    layout->addWidget(summary_);
    sides_->addWidget(sidePane(sides_, infoA_, sourceA_));
    sides_->addWidget(sidePane(sides_, infoB_, sourceB_));
    sides_->setChildrenCollapsible(false);
    layout->addWidget(sides_, 1);
    clear();
}

void RaceDetailsView::clear() {
    race_ = RaceDetails();
    summary_->setText(tr("<i>Select a race in the partition tree.</i>"));
    infoA_->clear();
    infoB_->clear();
    sourceA_->clear();
    sourceB_->clear();
}

QString RaceDetailsView::summaryText() const {
    return summary_->text();
}
QString RaceDetailsView::sideText(int side) const {
    return (side == 0 ? infoA_ : infoB_)->text();
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
    html += tr(" &middot; partition %1").arg(s.partition);
    if (s.tangle) html += tr(" &middot; tangle %1").arg(*s.tangle);
    if (!race.variables.isEmpty())
        html +=
            tr(" &middot; on <code>%1</code>").arg(esc(race.variables.join(QStringLiteral(", "))));
    html += QStringLiteral("<br><span style='color:#616161'>%1</span>")
                .arg(esc(statusDescription(s.status)));
    summary_->setText(html);
    showSide(0, race.a, race.sitesA);
    showSide(1, race.b, race.sitesB);
}

void RaceDetailsView::showSide(int side, const EventDetails& event,
                               const QList<SourceSite>& sites) {
    QString html = QStringLiteral("<table cellspacing='0' cellpadding='1'>");
    auto row = [&](const QString& key, const QString& value) {
        html +=
            QStringLiteral("<tr><td style='color:#616161; padding-right:8px' valign='top'>%1</td>"
                           "<td>%2</td></tr>")
                .arg(key, value);
    };
    row(tr("Thread"), QStringLiteral("<b>%1</b>").arg(esc(event.thread)));
    QString eventText = tr("#%1").arg(event.index);
    if (!event.kind.isEmpty() && event.kind != QLatin1String("computation"))
        eventText += QStringLiteral(" (%1)").arg(esc(event.kind));
    if (event.clockStart)
        eventText += tr(" &middot; clock %1&ndash;%2")
                         .arg(*event.clockStart)
                         .arg(event.clockFinish.value_or(*event.clockStart));
    row(tr("Event"), eventText);
    if (!event.context.isEmpty()) {
        QStringList frames;
        for (const ContextFrameInfo& frame : event.context) {
            QString text = frame.function.isEmpty() ? QStringLiteral("??") : esc(frame.function);
            if (!frame.file.isEmpty())
                text += QStringLiteral(" <span style='color:#757575'>%1:%2</span>")
                            .arg(esc(frame.file))
                            .arg(frame.line);
            frames << text;
        }
        row(tr("Context"), frames.join(QStringLiteral("<br>")));
    }
    QStringList siteTexts;
    for (const SourceSite& site : sites) {
        QString text = QStringLiteral("<code title='%1'>%2</code> %3")
                           .arg(esc(site.location()), esc(site.shortLocation()), esc(site.kind));
        if (!site.function.isEmpty()) text += QStringLiteral(" in %1").arg(esc(site.function));
        siteTexts << text;
    }
    row(tr("Sites"),
        siteTexts.isEmpty() ? tr("<i>none recorded</i>") : siteTexts.join(QStringLiteral("<br>")));
    html += QStringLiteral("</table>");
    (side == 0 ? infoA_ : infoB_)->setText(html);

    const auto [file, lines] = racingLines(sites);
    SourceView* view = side == 0 ? sourceA_ : sourceB_;
    SourceText text;
    if (!file.isEmpty() && sources_) text = sources_(file);
    view->showSource(file, text.text, text.available, lines, statusColor(race_.summary.status));
}

} // namespace firstrace::gui
