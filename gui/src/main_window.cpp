#include "main_window.hpp"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

#include "history_view.hpp"
#include "plain_tool_tip.hpp"
#include "race_details_view.hpp"
#include "race_site_tree_model.hpp"
#include "results_database.hpp"
#include "run_list_model.hpp"
#include "status_icons.hpp"

namespace firstrace::gui {

namespace {

// Races listed in a copied or exported race site (each needs its details: about 1 ms each).
constexpr int kReportRaceLimit = 200;

QToolButton* filterButton(QWidget* parent, const QIcon& icon, const QString& text,
                          const QString& tip) {
    auto* button = new QToolButton(parent);
    button->setIcon(icon);
    button->setText(text);
    button->setToolTip(tip);
    button->setCheckable(true);
    button->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    button->setAutoRaise(true);
    return button;
}

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), runs_(new RunListModel(this)), sites_(new RaceSiteTreeModel(this)),
      runBox_(new QComboBox(this)), summary_(new QLabel(this)), fileBox_(new QComboBox(this)),
      threadBox_(new QComboBox(this)), search_(new QLineEdit(this)), searchTimer_(new QTimer(this)),
      tree_(new QTreeView(this)), details_(new RaceDetailsView(this)),
      history_(new HistoryView(this)), mainSplitter_(new QSplitter(Qt::Horizontal, this)),
      rightSplitter_(new QSplitter(Qt::Vertical, this)) {
    setWindowTitle(tr("firstrace"));
    setObjectName(QStringLiteral("MainWindow"));
    buildActions();

    mainSplitter_->setObjectName(QStringLiteral("mainSplitter"));
    rightSplitter_->setObjectName(QStringLiteral("rightSplitter"));
    mainSplitter_->addWidget(buildLeftPanel());
    rightSplitter_->addWidget(details_);
    rightSplitter_->addWidget(history_);
    rightSplitter_->setStretchFactor(0, 3);
    rightSplitter_->setStretchFactor(1, 2);
    mainSplitter_->addWidget(rightSplitter_);
    mainSplitter_->setStretchFactor(0, 2);
    mainSplitter_->setStretchFactor(1, 3);
    mainSplitter_->setSizes({660, 900});
    rightSplitter_->setSizes({440, 460});
    setCentralWidget(mainSplitter_);
    resize(1500, 950);

    details_->setSourceProvider([this](const QString& file) {
        if (!database_) return SourceText{file, QString(), false};
        try {
            return database_->sourceText(run_, file);
        } catch (const DatabaseError& e) {
            statusBar()->showMessage(QString::fromStdString(e.what()));
            return SourceText{file, QString(), false};
        }
    });

    connect(runs_, &RunListModel::errorOccurred, this,
            [this](const QString& message) { showError(tr("Damaged database"), message); });
    connect(sites_, &RaceSiteTreeModel::errorOccurred, this,
            [this](const QString& message) { showError(tr("Damaged database"), message); });
    connect(runBox_, &QComboBox::currentIndexChanged, this, &MainWindow::onRunChanged);
    connect(tree_->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) { onCurrentChanged(current); });
    connect(history_, &HistoryView::raceActivated, this, [this](qint64 race) { selectRace(race); });
    connect(details_, &RaceDetailsView::raceLinkActivated, this,
            [this](qint64 race) { selectRace(race); });
    connect(sites_, &QAbstractItemModel::modelReset, this, &MainWindow::updateSummary);
    connect(sites_, &QAbstractItemModel::rowsInserted, this, [this](const QModelIndex& parent) {
        if (!parent.isValid()) updateSummary();
    });
    statusBar()->showMessage(tr("Open a results database (firstrace analyze TRACE -o DB)."));
    updateStatusCounts();
    updateSummary();
}

MainWindow::~MainWindow() {
    // The models hold the database; the views may still ask them for data while they close.
    sites_->setRun(nullptr, -1);
    runs_->setDatabase(nullptr);
}

void MainWindow::buildActions() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open\u2026"), this, &MainWindow::openWithDialog);
    open->setShortcut(QKeySequence::Open);
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    file->addSeparator();
    exportAction_ = file->addAction(tr("&Export Race Site\u2026"), this, &MainWindow::exportSite);
    exportAction_->setShortcut(QKeySequence(tr("Ctrl+E")));
    file->addAction(tr("&Close Database"), this, &MainWindow::closeDatabase);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    copyTextAction_ = edit->addAction(tr("Copy Race Site as &Text"), this,
                                      [this] { copySite(ReportFormat::Text); });
    // Not QKeySequence::Copy: that belongs to the source views and labels.
    copyTextAction_->setShortcut(QKeySequence(tr("Ctrl+Alt+C")));
    copyMarkdownAction_ = edit->addAction(tr("Copy Race Site as &Markdown"), this,
                                          [this] { copySite(ReportFormat::Markdown); });
    copyMarkdownAction_->setShortcut(QKeySequence(tr("Ctrl+Shift+C")));
    edit->addSeparator();
    QAction* find = edit->addAction(tr("&Find"), this, [this] {
        search_->setFocus();
        search_->selectAll();
    });
    find->setShortcut(QKeySequence::Find);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addAction(tr("&Fit History"), this, [this] { history_->fitAll(); });
    view->addAction(tr("&Centre on Race"), this, [this] { history_->centerOnFocus(); });
    view->addAction(tr("&Expand Race Sites of First Partitions"), this, [this] {
        for (int row = 0; row < sites_->rowCount(); ++row) {
            const QModelIndex index = sites_->index(row, 0);
            if (index.data(RaceSiteTreeModel::GroupRole).toInt() == int(RaceGroup::FirstPartition))
                tree_->expand(index);
        }
    });

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About firstrace"), this, [this] {
        QMessageBox::about(
            this, tr("About firstrace"),
            tr("<b>firstrace-gui</b> %1<br>Browses the race sites and first race partitions of "
               "post-mortem race analyses (Netzer, 1991).")
                .arg(QStringLiteral(FIRSTRACE_VERSION)));
    });

    QToolBar* bar = addToolBar(tr("Main"));
    bar->setObjectName(QStringLiteral("mainToolBar"));
    bar->setMovable(false);
    bar->addAction(open);
    bar->addSeparator();
    bar->addWidget(new QLabel(tr(" Run: "), bar));
    runBox_->setModel(runs_);
    runBox_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    runBox_->setMinimumContentsLength(30);
    bar->addWidget(runBox_);
    bar->addSeparator();
    bar->addAction(copyMarkdownAction_);
    bar->addAction(exportAction_);
}

QWidget* MainWindow::buildLeftPanel() {
    auto* panel = new QWidget(this);
    auto* layout = new QVBoxLayout(panel);
    layout->setContentsMargins(4, 4, 0, 0);
    layout->setSpacing(4);
    summary_->setWordWrap(true);
    summary_->setTextFormat(Qt::RichText);
    summary_->setContentsMargins(2, 0, 2, 2);
    layout->addWidget(summary_);

    auto* statusRow = new QHBoxLayout;
    statusRow->setSpacing(2);
    // Toggles: a status is shown while its button is down (all are at first); "Only actual"
    // narrows to races whose events overlapped. The counts follow the other filters.
    feasibleButton_ = filterButton(panel, statusIcon(RaceStatus::Feasible), tr("Feasible"),
                                   statusDescription(RaceStatus::Feasible));
    feasibleEcButton_ = filterButton(panel, statusIcon(RaceStatus::FeasibleEc), tr("Feasible-ec"),
                                     statusDescription(RaceStatus::FeasibleEc));
    unvalidatedButton_ = filterButton(panel, statusIcon(RaceStatus::Unvalidated), tr("Unvalidated"),
                                      statusDescription(RaceStatus::Unvalidated));
    actualButton_ = filterButton(panel, statusIcon(RaceStatus::Feasible, true), tr("Only actual"),
                                 tr("Only races whose two events really overlapped in time"));
    for (QToolButton* button : {feasibleButton_, feasibleEcButton_, unvalidatedButton_})
        button->setChecked(true);
    statusRow->addWidget(new QLabel(tr("Show:"), panel));
    for (QToolButton* button : {feasibleButton_, feasibleEcButton_, unvalidatedButton_}) {
        statusRow->addWidget(button);
        connect(button, &QToolButton::toggled, this, &MainWindow::applyFilterFromControls);
    }
    statusRow->addStretch(1);
    layout->addLayout(statusRow);

    auto* choiceRow = new QHBoxLayout;
    fileBox_->setToolTip(tr("Only race sites with a headline line in this file"));
    threadBox_->setToolTip(tr("Only races with an event of this thread"));
    fileBox_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    fileBox_->setMinimumContentsLength(12);
    threadBox_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    threadBox_->setMinimumContentsLength(8);
    search_->setPlaceholderText(tr("Search races: id, variable, file, function, thread"));
    search_->setClearButtonEnabled(true);
    choiceRow->addWidget(actualButton_);
    connect(actualButton_, &QToolButton::toggled, this, &MainWindow::applyFilterFromControls);
    choiceRow->addWidget(fileBox_, 2);
    choiceRow->addWidget(threadBox_, 1);
    layout->addLayout(choiceRow);
    layout->addWidget(search_);
    searchTimer_->setSingleShot(true);
    searchTimer_->setInterval(250);
    connect(search_, &QLineEdit::textChanged, searchTimer_, qOverload<>(&QTimer::start));
    connect(searchTimer_, &QTimer::timeout, this, &MainWindow::applyFilterFromControls);
    connect(fileBox_, &QComboBox::currentIndexChanged, this, &MainWindow::applyFilterFromControls);
    connect(threadBox_, &QComboBox::currentIndexChanged, this,
            &MainWindow::applyFilterFromControls);

    tree_->setModel(sites_);
    tree_->setUniformRowHeights(true);
    tree_->setAlternatingRowColors(true);
    tree_->setSelectionBehavior(QAbstractItemView::SelectRows);
    tree_->setSelectionMode(QAbstractItemView::SingleSelection);
    tree_->setAllColumnsShowFocus(true);
    tree_->header()->setStretchLastSection(false);
    tree_->setTextElideMode(Qt::ElideMiddle);
    layout->addWidget(tree_, 1);
    refillFilterChoices();
    return panel;
}

void MainWindow::showError(const QString& title, const QString& message) {
    statusBar()->showMessage(message);
    errorShown_ = true;
    if (!messageBoxes_) return;
    auto* box = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setWindowModality(Qt::WindowModal);
    box->open();
}

bool MainWindow::openDatabase(const QString& path) {
    QElapsedTimer timer;
    timer.start();
    auto result = ResultsDatabase::open(path);
    if (!result.database) {
        emit openFailed(path, result.message);
        showError(tr("Cannot open results database"), result.message);
        return false;
    }
    closeDatabase();
    database_ = std::move(result.database);
    history_->resetViewSettings(); // toggles and zoom start afresh with each database
    setWindowTitle(tr("%1 \u2014 firstrace").arg(QFileInfo(path).fileName()));
    {
        // Only the run shown is read (the combo box would first show run 1).
        const QSignalBlocker blocker(runBox_);
        runs_->setDatabase(database_.get());
        runBox_->setCurrentIndex(runs_->rowCount() - 1);
    }
    addRecentFile(QFileInfo(path).absoluteFilePath());
    // The newest run is what `analyze -o` just wrote.
    if (runs_->rowCount() > 0) onRunChanged(runBox_->currentIndex());
    showSuccess(tr("Opened %1 in %2 ms").arg(path).arg(timer.elapsed()));
    emit databaseOpened(path);
    return true;
}

void MainWindow::closeDatabase() {
    run_ = -1;
    sites_->setRun(nullptr, -1);
    runs_->setDatabase(nullptr);
    database_.reset();
    details_->clear();
    history_->clear();
    refillFilterChoices();
    setWindowTitle(tr("firstrace"));
    updateSummary();
}

bool MainWindow::selectRun(qint64 run) {
    const int row = runs_->rowOfRun(run);
    if (row < 0) return false;
    runBox_->setCurrentIndex(row);
    onRunChanged(row);
    return true;
}

void MainWindow::onRunChanged(int row) {
    if (!database_ || row < 0 || row >= runs_->rowCount()) return;
    const qint64 run = runs_->run(row).id;
    if (run == run_) return;
    run_ = run;
    details_->clear();
    history_->clear();
    refillFilterChoices();
    sites_->setRun(database_.get(), run_);
    updateStatusCounts();
    // The first site opened and its first race selected: races are listed first partitions
    // first and feasible first, so this is a feasible race of a first partition when the run
    // has one — what to look at first.
    if (sites_->rowCount() > 0) {
        const QModelIndex first = sites_->index(0, 0);
        sites_->fetchMore(first);
        tree_->expand(first);
        const QModelIndex race = sites_->index(0, 0, first);
        tree_->setCurrentIndex(race.isValid() ? race : first);
    }
    fitColumns();
}

void MainWindow::fitColumns() {
    // Sized to what the loaded rows show (the view measures the rows on screen), the variable
    // column capped so the others stay visible.
    for (int column = 0; column < RaceSiteTreeModel::ColumnCount; ++column)
        tree_->resizeColumnToContents(column);
    const int cap = std::max(160, tree_->viewport()->width() / 3);
    if (tree_->columnWidth(RaceSiteTreeModel::VariableColumn) > cap)
        tree_->setColumnWidth(RaceSiteTreeModel::VariableColumn, cap);
}

void MainWindow::showSuccess(const QString& message) {
    errorShown_ = false;
    statusBar()->showMessage(message, 8000);
}

QToolButton* MainWindow::statusToggle(RaceStatus status) const {
    switch (status) {
    case RaceStatus::Feasible:
        return feasibleButton_;
    case RaceStatus::FeasibleEc:
        return feasibleEcButton_;
    case RaceStatus::Unvalidated:
        return unvalidatedButton_;
    }
    return nullptr;
}

void MainWindow::updateStatusCounts() {
    StatusCounts counts;
    if (database_ && run_ >= 0) {
        try {
            counts = database_->statusCounts(run_, filter());
        } catch (const DatabaseError& e) {
            showError(tr("Damaged database"), QString::fromStdString(e.what()));
        }
    }
    const bool known = database_ && run_ >= 0;
    for (RaceStatus status : kRaceStatuses) {
        const QString name = status == RaceStatus::Feasible     ? tr("Feasible")
                             : status == RaceStatus::FeasibleEc ? tr("Feasible-ec")
                                                                : tr("Unvalidated");
        statusToggle(status)->setText(
            known ? QStringLiteral("%1 %2").arg(name).arg(counts.of(status)) : name);
    }
    actualButton_->setText(known ? tr("Only actual %1").arg(counts.actual) : tr("Only actual"));
}

void MainWindow::refillFilterChoices() {
    updatingFilter_ = true;
    fileBox_->clear();
    threadBox_->clear();
    fileBox_->addItem(tr("All files"));
    threadBox_->addItem(tr("All threads"));
    if (database_ && run_ >= 0) {
        try {
            for (const QString& file : database_->raceFiles(run_))
                fileBox_->addItem(QFileInfo(file).fileName(), file);
            for (const QString& thread : database_->threadNames(run_))
                threadBox_->addItem(thread, thread);
        } catch (const DatabaseError& e) {
            statusBar()->showMessage(QString::fromStdString(e.what()));
        }
    }
    for (QToolButton* button : {feasibleButton_, feasibleEcButton_, unvalidatedButton_})
        button->setChecked(true);
    actualButton_->setChecked(false);
    search_->clear();
    searchTimer_->stop();
    updatingFilter_ = false;
    sites_->setFilter(RaceFilter());
}

RaceFilter MainWindow::filter() const {
    RaceFilter filter;
    for (RaceStatus status : kRaceStatuses)
        if (statusToggle(status)->isChecked()) filter.statuses << status;
    if (filter.statuses.size() == int(std::size(kRaceStatuses))) filter.statuses.clear();
    filter.actualOnly = actualButton_->isChecked();
    filter.file = fileBox_->currentData().toString();
    filter.thread = threadBox_->currentData().toString();
    filter.search = search_->text().trimmed();
    return filter;
}

void MainWindow::setFilter(const RaceFilter& filter) {
    updatingFilter_ = true;
    for (RaceStatus status : kRaceStatuses)
        statusToggle(status)->setChecked(filter.statuses.isEmpty() ||
                                         filter.statuses.contains(status));
    actualButton_->setChecked(filter.actualOnly);
    const int file = fileBox_->findData(filter.file);
    fileBox_->setCurrentIndex(filter.file.isEmpty() || file < 0 ? 0 : file);
    const int thread = threadBox_->findData(filter.thread);
    threadBox_->setCurrentIndex(filter.thread.isEmpty() || thread < 0 ? 0 : thread);
    search_->setText(filter.search);
    searchTimer_->stop();
    updatingFilter_ = false;
    applyFilterFromControls();
}

void MainWindow::applyFilterFromControls() {
    if (updatingFilter_ || !database_) return;
    // At least one status stays shown: switching off the last one switches the others on.
    bool any = false;
    for (RaceStatus status : kRaceStatuses)
        any = any || statusToggle(status)->isChecked();
    if (!any) {
        updatingFilter_ = true;
        for (RaceStatus status : kRaceStatuses)
            statusToggle(status)->setChecked(true);
        updatingFilter_ = false;
    }
    const std::optional<qint64> previous = selectedRace();
    sites_->setFilter(filter());
    if (previous && sites_->indexOfRace(*previous).isValid()) {
        selectRace(*previous);
    } else if (sites_->rowCount() > 0) {
        const QModelIndex first = sites_->index(0, 0);
        sites_->fetchMore(first);
        tree_->expand(first);
        const QModelIndex race = sites_->index(0, 0, first);
        tree_->setCurrentIndex(race.isValid() ? race : first);
    }
    updateStatusCounts();
    updateSummary();
}

void MainWindow::updateSummary() {
    if (!database_ || run_ < 0) {
        summary_->setText(tr("<i>No results database open.</i>"));
        return;
    }
    const int row = runs_->rowOfRun(run_);
    if (row < 0) return;
    const StoredRun& run = runs_->run(row);
    QString text = QStringLiteral("<b>%1</b> &middot; %2 ordering<br>%3")
                       .arg(QFileInfo(run.tracePath).fileName().toHtmlEscaped(), run.ordering,
                            runCountsText(run).toHtmlEscaped());
    if (run.truncated)
        text += tr("<br><span style='color:#c62828'>The trace is truncated: the program did not "
                   "finish.</span>");
    if (!sites_->filter().isEmpty())
        text += tr("<br><span style='color:#1565c0'>Filtered: %1%2 race sites shown</span>")
                    .arg(sites_->loadedSites())
                    .arg(sites_->allSitesLoaded() ? QString() : QStringLiteral("+"));
    summary_->setText(text);
}

void MainWindow::onCurrentChanged(const QModelIndex& current) {
    const RaceSummary* race = sites_->raceAt(current);
    exportAction_->setEnabled(sites_->siteAt(current) != nullptr);
    if (!race || !database_) return;
    try {
        const auto details = database_->raceDetails(run_, race->id);
        if (details) details_->showRace(*details);
        HistoryData history = database_->history(
            run_, race->id, 6, 3, details ? details->orderedAfter.race : std::nullopt);
        history_->setHistory(history);
    } catch (const DatabaseError& e) {
        showError(tr("Damaged database"), QString::fromStdString(e.what()));
        return;
    }
    if (errorShown_) showSuccess(QString());
    emit raceSelected(race->id);
}

bool MainWindow::selectRace(qint64 id) {
    if (!database_) return false;
    QModelIndex index = sites_->indexOfRace(id);
    if (!index.isValid() && !sites_->filter().isEmpty()) {
        setFilter(RaceFilter());
        index = sites_->indexOfRace(id);
    }
    if (!index.isValid()) {
        statusBar()->showMessage(tr("Race %1 is not in this run.").arg(id));
        errorShown_ = true; // cleared by the next race shown
        return false;
    }
    tree_->expand(index.parent());
    tree_->setCurrentIndex(index);
    tree_->scrollTo(index, QAbstractItemView::PositionAtCenter);
    return true;
}

std::optional<qint64> MainWindow::selectedRace() const {
    const RaceSummary* race = sites_->raceAt(tree_->currentIndex());
    if (!race) return std::nullopt;
    return race->id;
}

std::optional<qint64> MainWindow::selectedSite() const {
    const QVariant pair = tree_->currentIndex().data(RaceSiteTreeModel::PairIdRole);
    if (!pair.isValid()) return std::nullopt;
    return pair.toLongLong();
}

QString MainWindow::siteReport(ReportFormat format) const {
    const QModelIndex current = tree_->currentIndex();
    const RaceSiteRow* site = sites_->siteAt(current);
    if (!database_ || !site) return QString();
    const int row = runs_->rowOfRun(run_);
    if (row < 0) return QString();
    const QList<RaceDetails> races =
        database_->siteRaceDetails(run_, site->pairId, sites_->filter(), kReportRaceLimit);
    QString report = raceSiteReport(runs_->run(row), *site, races, format);
    if (site->counts.races > races.size())
        report += tr("\n(%1 more races not listed)\n").arg(site->counts.races - races.size());
    return report;
}

void MainWindow::copySite(ReportFormat format) {
    try {
        const QString report = siteReport(format);
        if (report.isEmpty()) return;
        QApplication::clipboard()->setText(report);
        showSuccess(tr("Copied the race site as %1.")
                        .arg(format == ReportFormat::Markdown ? tr("Markdown") : tr("text")));
    } catch (const DatabaseError& e) {
        showError(tr("Damaged database"), QString::fromStdString(e.what()));
    }
}

void MainWindow::exportSite() {
    const auto site = selectedSite();
    if (!site) return;
    QString selectedFilter;
    const QString markdownFilter = tr("Markdown (*.md)");
    const QString textFilter = tr("Text (*.txt)");
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export Race Site"), QStringLiteral("race-site-%1.md").arg(*site),
        markdownFilter + QStringLiteral(";;") + textFilter, &selectedFilter);
    if (path.isEmpty()) return;
    const ReportFormat format =
        path.endsWith(QStringLiteral(".txt")) || selectedFilter == textFilter
            ? ReportFormat::Text
            : ReportFormat::Markdown;
    QFile file(path);
    try {
        const QString report = siteReport(format);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text) ||
            file.write(report.toUtf8()) < 0) {
            showError(tr("Export failed"), tr("Cannot write %1: %2").arg(path, file.errorString()));
            return;
        }
    } catch (const DatabaseError& e) {
        showError(tr("Damaged database"), QString::fromStdString(e.what()));
        return;
    }
    showSuccess(tr("Exported the race site to %1").arg(path));
}

void MainWindow::openWithDialog() {
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open Results Database"), QString(),
                                     tr("firstrace results (*.db *.sqlite*);;All files (*)"));
    if (!path.isEmpty()) openDatabase(path);
}

QStringList MainWindow::recentFiles() const {
    return QSettings().value(QStringLiteral("recentFiles")).toStringList();
}

void MainWindow::addRecentFile(const QString& path) {
    if (!persistent_) return;
    QStringList files = recentFiles();
    files.removeAll(path);
    files.prepend(path);
    while (files.size() > kMaxRecentFiles)
        files.removeLast();
    QSettings().setValue(QStringLiteral("recentFiles"), files);
    updateRecentMenu();
}

void MainWindow::updateRecentMenu() {
    recentMenu_->clear();
    const QStringList files = recentFiles();
    for (int i = 0; i < files.size(); ++i) {
        const QString& path = files[i];
        QAction* action = recentMenu_->addAction(
            QStringLiteral("&%1 %2").arg(i + 1).arg(QFileInfo(path).fileName()), this,
            [this, path] { openDatabase(path); });
        action->setToolTip(plainToolTip(path));
        action->setStatusTip(path);
    }
    if (!files.isEmpty()) recentMenu_->addSeparator();
    QAction* clear = recentMenu_->addAction(tr("Clear Menu"), this, [this] {
        QSettings().remove(QStringLiteral("recentFiles"));
        updateRecentMenu();
    });
    clear->setEnabled(!files.isEmpty());
}

void MainWindow::restoreLayout() {
    QSettings settings;
    settings.beginGroup(QStringLiteral("layout"));
    restoreGeometry(settings.value(QStringLiteral("geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("state")).toByteArray());
    mainSplitter_->restoreState(settings.value(QStringLiteral("mainSplitter")).toByteArray());
    rightSplitter_->restoreState(settings.value(QStringLiteral("rightSplitter")).toByteArray());
    details_->splitter()->restoreState(
        settings.value(QStringLiteral("detailsSplitter")).toByteArray());
    tree_->header()->restoreState(settings.value(QStringLiteral("treeHeader")).toByteArray());
    settings.endGroup();
    updateRecentMenu();
}

void MainWindow::saveLayout() const {
    QSettings settings;
    settings.beginGroup(QStringLiteral("layout"));
    settings.setValue(QStringLiteral("geometry"), saveGeometry());
    settings.setValue(QStringLiteral("state"), saveState());
    settings.setValue(QStringLiteral("mainSplitter"), mainSplitter_->saveState());
    settings.setValue(QStringLiteral("rightSplitter"), rightSplitter_->saveState());
    settings.setValue(QStringLiteral("detailsSplitter"), details_->splitter()->saveState());
    settings.setValue(QStringLiteral("treeHeader"), tree_->header()->saveState());
    settings.endGroup();
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (persistent_) saveLayout();
    event->accept();
}

} // namespace firstrace::gui
