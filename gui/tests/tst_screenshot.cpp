// The screenshot mode of the real executable: `firstrace-gui --screenshot OUT.png DB --race ID`
// renders offscreen, writes a PNG that is not blank, and exits 0; bad input exits 2. --help and
// --version work without a display.
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include "results_fixture.hpp"
#include "screenshot.hpp"

using namespace firstrace::gui;

class ScreenshotTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString db_;

    int run(const QStringList& arguments, QString* errors = nullptr, QString* output = nullptr) {
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        // No display at all: the screenshot mode, --help and --version choose offscreen.
        env.remove(QStringLiteral("QT_QPA_PLATFORM"));
        env.remove(QStringLiteral("DISPLAY"));
        env.remove(QStringLiteral("WAYLAND_DISPLAY"));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir_.filePath(QStringLiteral("config")));
        process.setProcessEnvironment(env);
        process.start(QStringLiteral(FIRSTRACE_GUI_BINARY), arguments);
        if (!process.waitForFinished(60000)) return -1;
        if (errors) *errors = QString::fromUtf8(process.readAllStandardError());
        if (output) *output = QString::fromUtf8(process.readAllStandardOutput());
        return process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    }

  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        db_ = dir_.filePath(QStringLiteral("figure.db"));
        testing::writeFigureRun(db_, dir_.filePath(QStringLiteral("src")));
    }

    void helpAndVersionWithoutDisplay() {
        QString output;
        QCOMPARE(run({QStringLiteral("--help")}, nullptr, &output), 0);
        QVERIFY2(output.contains(QStringLiteral("--screenshot")), qPrintable(output));
        QCOMPARE(run({QStringLiteral("--version")}, nullptr, &output), 0);
        QVERIFY2(output.startsWith(QStringLiteral("firstrace-gui ")), qPrintable(output));
    }

    void rendersSelectedRace() {
        const QString png = dir_.filePath(QStringLiteral("race.png"));
        QString errors;
        QCOMPARE(run({QStringLiteral("--screenshot"), png, db_, QStringLiteral("--race"),
                      QStringLiteral("2")},
                     &errors),
                 0);
        const QImage image(png);
        QVERIFY2(!image.isNull(), qPrintable(errors));
        QCOMPARE(image.size(), QSize(1600, 1000));
        QVERIFY(hasContent(image));
        // Race 2 is feasible: its red race edge, status icon and highlighted lines appear, so
        // the history view, tree and sources were painted, not just the frame.
        int red = 0;
        for (int y = 0; y < image.height(); y += 2)
            for (int x = 0; x < image.width(); x += 2) {
                const QColor c = image.pixelColor(x, y);
                if (c.red() > 180 && c.green() < 90 && c.blue() < 90) ++red;
            }
        QVERIFY2(red > 20, qPrintable(QStringLiteral("%1 red pixels").arg(red)));
        image.save(
            QStringLiteral("screenshot-figure-2-1.png")); // kept in the build tree to look at
    }

    void customSize() {
        const QString png = dir_.filePath(QStringLiteral("small.png"));
        QCOMPARE(run({QStringLiteral("--screenshot"), png, QStringLiteral("--size"),
                      QStringLiteral("1280x800"), db_}),
                 0);
        QCOMPARE(QImage(png).size(), QSize(1280, 800));
    }

    void failsCleanly_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        QTest::newRow("missing database")
            << QStringList{"--screenshot", "x.png", "/nonexistent/results.db"}
            << QStringLiteral("does not exist");
        QTest::newRow("unknown race") << QStringList{"--screenshot", "x.png", "DB", "--race", "77"}
                                      << QStringLiteral("no race 77");
        QTest::newRow("no database")
            << QStringList{"--screenshot", "x.png"} << QStringLiteral("needs a database");
        QTest::newRow("bad size") << QStringList{"--screenshot", "x.png", "DB", "--size", "10"}
                                  << QStringLiteral("--size");
    }

    void failsCleanly() {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        arguments.replaceInStrings(QStringLiteral("x.png"), dir_.filePath(QStringLiteral("x.png")));
        for (QString& argument : arguments)
            if (argument == QLatin1String("DB")) argument = db_;
        QString errors;
        QCOMPARE(run(arguments, &errors), 2);
        QVERIFY2(errors.contains(message), qPrintable(errors));
        QVERIFY(!QFile::exists(dir_.filePath(QStringLiteral("x.png"))));
    }
};

QTEST_GUILESS_MAIN(ScreenshotTest)
#include "tst_screenshot.moc"
