// A tool tip that shows its text as it is. Qt takes a tool tip for rich text when it merely
// looks like HTML (Qt::mightBeRichText), so a function, file or thread name from a trace such as
// "<img src=...>" or "<b>x" would be rendered as markup (issue 13): every tool tip that holds
// text from the database goes through here, as escaped rich text that keeps line breaks.
#pragma once

#include <QString>

namespace firstrace::gui {

inline QString plainToolTip(const QString& text) {
    return QStringLiteral("<p style='white-space:pre'>%1</p>").arg(text.toHtmlEscaped());
}

} // namespace firstrace::gui
