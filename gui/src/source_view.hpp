// A read-only source file viewer with line numbers and highlighted lines: the racing lines of
// one side of a race, from the source text stored in the database.
#pragma once

#include <QList>
#include <QPlainTextEdit>
#include <QWidget>

class QLabel;

namespace firstrace::gui {

class SourceTextEdit : public QPlainTextEdit {
    Q_OBJECT
  public:
    // Lines a source pane always shows (issue 15: C++ stacks shrank them to 3).
    static constexpr int kMinimumLines = 9;
    explicit SourceTextEdit(QWidget* parent = nullptr);
    void setHighlightedLines(const QList<int>& lines, const QColor& color);
    const QList<int>& highlightedLines() const { return lines_; }
    int lineNumberAreaWidth() const;
    void paintLineNumbers(QPaintEvent* event);

  signals:
    void resized();

  protected:
    void resizeEvent(QResizeEvent* event) override;

  private:
    void updateLineNumberArea(const QRect& rect, int dy);
    QWidget* lineNumberArea_;
    QList<int> lines_;
    QColor color_;
};

class SourceView : public QWidget {
    Q_OBJECT
  public:
    explicit SourceView(QWidget* parent = nullptr);
    // Shows `text` (the whole file) with `lines` (1-based) highlighted and the first one
    // centred. An empty `text` with `available == false` shows why there is no source.
    void showSource(const QString& file, const QString& text, bool available,
                    const QList<int>& lines, const QColor& color);
    void clear();
    QString file() const { return file_; }
    const QList<int>& highlightedLines() const { return editor_->highlightedLines(); }
    QString displayedText() const { return editor_->toPlainText(); }

  private:
    void centerFocusLine();
    QLabel* header_;
    SourceTextEdit* editor_;
    QString file_;
    int focusLine_ = 0;
};

} // namespace firstrace::gui
