// The screenshot mode: the main window rendered into a PNG (used by the README and tests).
#pragma once

#include <QImage>
#include <QString>

namespace firstrace::gui {

class MainWindow;

// Shows `window` at `width` x `height`, lets it lay out and paint, and grabs it.
QImage renderWindow(MainWindow& window, int width = 1600, int height = 1000);
// True when the image has at least two different pixel colours (not blank).
bool hasContent(const QImage& image);

} // namespace firstrace::gui
