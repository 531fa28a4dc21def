// firstrace-gui [DB] — browse the race sites and first race partitions of a results database.
// firstrace-gui --screenshot OUT.png DB [--race ID] [--run ID] — render offscreen and exit.
#include <QApplication>
#include <QCommandLineParser>
#include <QTextStream>

#include <cstdio>
#include <cstring>

#include "main_window.hpp"
#include "screenshot.hpp"

using firstrace::gui::MainWindow;

namespace {

int fail(const QString& message) {
    QTextStream(stderr) << "firstrace-gui: " << message << '\n';
    return 2;
}

} // namespace

int main(int argc, char** argv) {
    // The screenshot mode, --help and --version need no display: a QApplication without one
    // aborts, so they run on the offscreen platform.
    for (int i = 1; i < argc; ++i) {
        const bool headless =
            std::strcmp(argv[i], "--screenshot") == 0 || std::strcmp(argv[i], "--help") == 0 ||
            std::strcmp(argv[i], "-h") == 0 || std::strcmp(argv[i], "--help-all") == 0 ||
            std::strcmp(argv[i], "--version") == 0 || std::strcmp(argv[i], "-v") == 0;
        if (headless && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
    }

    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("firstrace"));
    QApplication::setApplicationName(QStringLiteral("firstrace-gui"));
    QApplication::setApplicationVersion(QStringLiteral(FIRSTRACE_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Browse the race sites and first race partitions of a firstrace results "
                       "database."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(
        QStringLiteral("DB"), QStringLiteral("Results database (firstrace analyze TRACE -o DB)."));
    const QCommandLineOption screenshot(
        QStringLiteral("screenshot"),
        QStringLiteral("Render the main window offscreen into OUT.png and exit."),
        QStringLiteral("OUT.png"));
    const QCommandLineOption race(QStringLiteral("race"), QStringLiteral("Select race ID."),
                                  QStringLiteral("ID"));
    const QCommandLineOption run(QStringLiteral("run"),
                                 QStringLiteral("Show run ID (default: the newest)."),
                                 QStringLiteral("ID"));
    const QCommandLineOption size(QStringLiteral("size"),
                                  QStringLiteral("Screenshot size (default 1600x1000)."),
                                  QStringLiteral("WxH"), QStringLiteral("1600x1000"));
    parser.addOptions({screenshot, race, run, size});
    parser.process(app);

    const QStringList positional = parser.positionalArguments();
    if (positional.size() > 1)
        return fail(QStringLiteral("expected at most one database, got %1").arg(positional.size()));
    const QString database = positional.value(0);
    auto number = [&](const QCommandLineOption& option, qint64& value) {
        bool ok = false;
        value = parser.value(option).toLongLong(&ok);
        return ok && value >= 0;
    };

    if (parser.isSet(screenshot)) {
        if (database.isEmpty()) return fail(QStringLiteral("--screenshot needs a database"));
        MainWindow window;
        window.setMessageBoxesEnabled(false);
        window.setPersistent(false);
        QString error;
        QObject::connect(&window, &MainWindow::openFailed,
                         [&](const QString&, const QString& message) { error = message; });
        if (!window.openDatabase(database)) return fail(error);
        qint64 value = 0;
        if (parser.isSet(run) && (!number(run, value) || !window.selectRun(value)))
            return fail(QStringLiteral("%1 has no run %2").arg(database, parser.value(run)));
        if (parser.isSet(race) && (!number(race, value) || !window.selectRace(value)))
            return fail(QStringLiteral("the run has no race %1").arg(parser.value(race)));
        const QStringList dims = parser.value(size).split(QLatin1Char('x'));
        const int width = dims.value(0).toInt();
        const int height = dims.value(1).toInt();
        if (dims.size() != 2 || width < 400 || height < 300)
            return fail(QStringLiteral("--size must be WxH, at least 400x300"));
        const QImage image = firstrace::gui::renderWindow(window, width, height);
        if (!firstrace::gui::hasContent(image))
            return fail(QStringLiteral("the rendered window is blank"));
        if (!image.save(parser.value(screenshot), "PNG"))
            return fail(QStringLiteral("cannot write %1").arg(parser.value(screenshot)));
        return 0;
    }

    MainWindow window;
    window.restoreLayout();
    window.show();
    if (!database.isEmpty() && window.openDatabase(database)) {
        qint64 value = 0;
        if (parser.isSet(run) && number(run, value)) window.selectRun(value);
        if (parser.isSet(race) && number(race, value)) window.selectRace(value);
    }
    return app.exec();
}
