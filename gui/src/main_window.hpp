// The browser's main window: run selector, status toggles, filters and the race-site tree on
// the left; the selected race's details, stacks and sources above its execution history on the
// right. Remembers recent files and its layout (QSettings); the history's view settings start
// afresh with each database.
#pragma once

#include <QMainWindow>

#include <memory>
#include <optional>

#include "race_filter.hpp"
#include "race_site_report.hpp"
#include "results_records.hpp"

class QComboBox;
class QLabel;
class QLineEdit;
class QMenu;
class QSplitter;
class QTimer;
class QToolButton;
class QTreeView;

namespace firstrace::gui {

class HistoryView;
class RaceSiteTreeModel;
class RaceDetailsView;
class ResultsDatabase;
class RunListModel;

class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Opens `path`. On failure emits openFailed and, when message boxes are enabled, shows a
    // (window-modal, non-blocking) message box; the previous database stays open.
    bool openDatabase(const QString& path);
    void closeDatabase();
    void setMessageBoxesEnabled(bool on) { messageBoxes_ = on; }
    // Off: neither recent files nor the layout are written (screenshot mode, benchmarks).
    void setPersistent(bool on) { persistent_ = on; }
    // Restores / saves geometry, dock and splitter state, recent files.
    void restoreLayout();
    void saveLayout() const;

    bool selectRun(qint64 run);
    // Selects race `id` of the current run, clearing the filter if it hides the race.
    bool selectRace(qint64 id);
    std::optional<qint64> selectedRace() const;
    // The pair id of the selected race site (or of the selected race's site).
    std::optional<qint64> selectedSite() const;
    // The selected race site as a report.
    QString siteReport(ReportFormat format) const;
    void setFilter(const RaceFilter& filter);
    RaceFilter filter() const;

    const ResultsDatabase* database() const { return database_.get(); }
    RaceSiteTreeModel* siteModel() const { return sites_; }
    RunListModel* runModel() const { return runs_; }
    QTreeView* siteTree() const { return tree_; }
    QToolButton* statusToggle(RaceStatus status) const;
    QToolButton* actualToggle() const { return actualButton_; }
    RaceDetailsView* raceDetails() const { return details_; }
    HistoryView* historyView() const { return history_; }
    QStringList recentFiles() const;

    static constexpr int kMaxRecentFiles = 8;

  signals:
    void openFailed(const QString& path, const QString& message);
    void databaseOpened(const QString& path);
    void raceSelected(qint64 id);

  protected:
    void closeEvent(QCloseEvent* event) override;

  private:
    void buildActions();
    QWidget* buildLeftPanel();
    void showError(const QString& title, const QString& message);
    void onRunChanged(int row);
    void onCurrentChanged(const QModelIndex& current);
    void applyFilterFromControls();
    void refillFilterChoices();
    void updateSummary();
    void updateStatusCounts();
    void fitColumns();
    void showSuccess(const QString& message);
    void updateRecentMenu();
    void addRecentFile(const QString& path);
    void openWithDialog();
    void exportSite();
    void copySite(ReportFormat format);

    std::unique_ptr<ResultsDatabase> database_;
    qint64 run_ = -1;
    bool messageBoxes_ = true;
    bool persistent_ = true;
    bool updatingFilter_ = false;
    bool errorShown_ = false; // the status bar shows an error until the next success

    RunListModel* runs_;
    RaceSiteTreeModel* sites_;
    QComboBox* runBox_;
    QLabel* summary_;
    QToolButton* feasibleButton_;
    QToolButton* feasibleEcButton_;
    QToolButton* unvalidatedButton_;
    QToolButton* actualButton_;
    QComboBox* fileBox_;
    QComboBox* threadBox_;
    QLineEdit* search_;
    QTimer* searchTimer_;
    QTreeView* tree_;
    RaceDetailsView* details_;
    HistoryView* history_;
    QSplitter* mainSplitter_;
    QSplitter* rightSplitter_;
    QMenu* recentMenu_;
    QAction* exportAction_;
    QAction* copyTextAction_;
    QAction* copyMarkdownAction_;
};

} // namespace firstrace::gui
