#include "source_view.hpp"
#include "plain_tool_tip.hpp"

#include <QFontDatabase>
#include <QLabel>
#include <QPaintEvent>
#include <QPainter>
#include <QTextBlock>
#include <QVBoxLayout>

namespace firstrace::gui {

namespace {

class LineNumberArea : public QWidget {
  public:
    explicit LineNumberArea(SourceTextEdit* editor) : QWidget(editor), editor_(editor) {}
    QSize sizeHint() const override { return {editor_->lineNumberAreaWidth(), 0}; }

  protected:
    void paintEvent(QPaintEvent* event) override { editor_->paintLineNumbers(event); }

  private:
    SourceTextEdit* editor_;
};

} // namespace

SourceTextEdit::SourceTextEdit(QWidget* parent)
    : QPlainTextEdit(parent), lineNumberArea_(new LineNumberArea(this)) {
    setReadOnly(true);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    connect(this, &QPlainTextEdit::blockCountChanged, this,
            [this] { setViewportMargins(lineNumberAreaWidth(), 0, 0, 0); });
    connect(this, &QPlainTextEdit::updateRequest, this, &SourceTextEdit::updateLineNumberArea);
    setViewportMargins(lineNumberAreaWidth(), 0, 0, 0);
    // Readable whatever the panels around it do: the racing line with context on both sides.
    setMinimumHeight(kMinimumLines * fontMetrics().lineSpacing() + 2 * frameWidth() + 8);
}

int SourceTextEdit::lineNumberAreaWidth() const {
    int digits = 1;
    for (int max = qMax(1, blockCount()); max >= 10; max /= 10)
        ++digits;
    return 12 + fontMetrics().horizontalAdvance(QLatin1Char('9')) * qMax(3, digits);
}

void SourceTextEdit::updateLineNumberArea(const QRect& rect, int dy) {
    if (dy != 0)
        lineNumberArea_->scroll(0, dy);
    else
        lineNumberArea_->update(0, rect.y(), lineNumberArea_->width(), rect.height());
}

void SourceTextEdit::resizeEvent(QResizeEvent* event) {
    QPlainTextEdit::resizeEvent(event);
    const QRect cr = contentsRect();
    lineNumberArea_->setGeometry(QRect(cr.left(), cr.top(), lineNumberAreaWidth(), cr.height()));
    emit resized();
}

void SourceTextEdit::paintLineNumbers(QPaintEvent* event) {
    QPainter painter(lineNumberArea_);
    painter.fillRect(event->rect(), palette().color(QPalette::AlternateBase));
    QTextBlock block = firstVisibleBlock();
    int number = block.blockNumber() + 1;
    qreal top = blockBoundingGeometry(block).translated(contentOffset()).top();
    qreal bottom = top + blockBoundingRect(block).height();
    const int width = lineNumberArea_->width() - 6;
    while (block.isValid() && top <= event->rect().bottom()) {
        if (block.isVisible() && bottom >= event->rect().top()) {
            const bool marked = lines_.contains(number);
            QFont font = painter.font();
            font.setBold(marked);
            painter.setFont(font);
            painter.setPen(marked ? color_.darker(140)
                                  : palette().color(QPalette::PlaceholderText));
            painter.drawText(0, int(top), width, fontMetrics().height(), Qt::AlignRight,
                             QString::number(number));
        }
        block = block.next();
        top = bottom;
        bottom = top + blockBoundingRect(block).height();
        ++number;
    }
}

void SourceTextEdit::setHighlightedLines(const QList<int>& lines, const QColor& color) {
    lines_ = lines;
    color_ = color;
    QList<QTextEdit::ExtraSelection> selections;
    QColor background = color;
    background.setAlpha(60);
    for (int line : lines) {
        const QTextBlock block = document()->findBlockByNumber(line - 1);
        if (!block.isValid()) continue;
        QTextEdit::ExtraSelection selection;
        selection.format.setBackground(background);
        selection.format.setProperty(QTextFormat::FullWidthSelection, true);
        selection.cursor = QTextCursor(block);
        selection.cursor.clearSelection();
        selections.append(selection);
    }
    setExtraSelections(selections);
    lineNumberArea_->update();
}

SourceView::SourceView(QWidget* parent)
    : QWidget(parent), header_(new QLabel(this)), editor_(new SourceTextEdit(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    header_->setTextFormat(Qt::PlainText);
    header_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont font = header_->font();
    font.setBold(true);
    header_->setFont(font);
    // A long path must not widen the window: the header is clipped, the path is in its tip.
    header_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    layout->addWidget(header_);
    layout->addWidget(editor_, 1);
    // Re-centre the racing line once the editor has its real size.
    connect(editor_, &SourceTextEdit::resized, this, &SourceView::centerFocusLine);
    clear();
}

void SourceView::clear() {
    file_.clear();
    focusLine_ = 0;
    header_->setText(tr("No source"));
    editor_->setPlainText(QString());
    editor_->setHighlightedLines({}, Qt::transparent);
}

void SourceView::showSource(const QString& file, const QString& text, bool available,
                            const QList<int>& lines, const QColor& color) {
    file_ = file;
    QStringList numbers;
    for (int line : lines)
        numbers << QString::number(line);
    header_->setToolTip(plainToolTip(file));
    header_->setText(file.isEmpty()      ? tr("<unknown file>")
                     : numbers.isEmpty() ? file
                                         : file + QStringLiteral("  :  line ") +
                                               numbers.join(QStringLiteral(", ")));
    if (!available) {
        editor_->setPlainText(
            file.isEmpty() ? tr("The access site has no source location.")
                           : tr("The source text of %1 is not stored in the database.").arg(file));
        editor_->setHighlightedLines({}, color);
        return;
    }
    editor_->setPlainText(text);
    editor_->setHighlightedLines(lines, color);
    focusLine_ = lines.isEmpty() ? 0 : lines.front();
    centerFocusLine();
}

void SourceView::centerFocusLine() {
    if (focusLine_ <= 0) return;
    const QTextBlock block = editor_->document()->findBlockByNumber(focusLine_ - 1);
    if (!block.isValid()) return;
    editor_->setTextCursor(QTextCursor(block));
    editor_->centerCursor();
}

} // namespace firstrace::gui
