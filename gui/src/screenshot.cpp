#include "screenshot.hpp"

#include <QApplication>
#include <QPixmap>

#include "main_window.hpp"

namespace firstrace::gui {

QImage renderWindow(MainWindow& window, int width, int height) {
    window.resize(width, height);
    window.show();
    // Layout and the history view's centring settle over a few event-loop turns.
    for (int i = 0; i < 5; ++i)
        QApplication::processEvents();
    return window.grab().toImage();
}

bool hasContent(const QImage& image) {
    if (image.isNull()) return false;
    const QImage rgb = image.convertToFormat(QImage::Format_RGB32);
    const QRgb first = rgb.pixel(0, 0);
    for (int y = 0; y < rgb.height(); ++y) {
        const auto* line = reinterpret_cast<const QRgb*>(rgb.constScanLine(y));
        for (int x = 0; x < rgb.width(); ++x)
            if (line[x] != first) return true;
    }
    return false;
}

} // namespace firstrace::gui
