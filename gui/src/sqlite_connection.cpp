#include "sqlite_connection.hpp"

#include <sqlite3.h>

#include <cstdio>

namespace firstrace::gui {

namespace {

[[noreturn]] void fail(sqlite3* db, int code, const QString& context) {
    QString detail =
        db ? QString::fromUtf8(sqlite3_errmsg(db)) : QString::fromUtf8(sqlite3_errstr(code));
    throw DatabaseError(context.isEmpty() ? detail : context + QStringLiteral(": ") + detail,
                        code & 0xff);
}

} // namespace

SqliteConnection::SqliteConnection(const QString& path, Mode mode) : path_(path) {
    const int flags =
        mode == Mode::ReadOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    const int rc =
        sqlite3_open_v2(path.toUtf8().constData(), &db_, flags | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK) {
        const QString message =
            db_ ? QString::fromUtf8(sqlite3_errmsg(db_)) : QString::fromUtf8(sqlite3_errstr(rc));
        sqlite3_close(db_);
        db_ = nullptr;
        throw DatabaseError(message, rc & 0xff);
    }
    sqlite3_extended_result_codes(db_, 0);
    sqlite3_busy_timeout(db_, 2000);
    // FIRSTRACE_GUI_SLOW_SQL=MS prints every statement that ran longer than MS milliseconds
    // (finding the query behind a slow click).
    bool ok = false;
    const int slowMs = qEnvironmentVariableIntValue("FIRSTRACE_GUI_SLOW_SQL", &ok);
    if (ok) {
        static int threshold = 0;
        threshold = slowMs;
        sqlite3_trace_v2(
            db_, SQLITE_TRACE_PROFILE,
            [](unsigned, void*, void* stmt, void* nanoseconds) {
                const auto ns = *static_cast<sqlite3_int64*>(nanoseconds);
                if (ns / 1000000 >= threshold) {
                    char* sql = sqlite3_expanded_sql(static_cast<sqlite3_stmt*>(stmt));
                    std::fprintf(stderr, "[%lld ms] %s\n", static_cast<long long>(ns / 1000000),
                                 sql ? sql : "?");
                    sqlite3_free(sql);
                }
                return 0;
            },
            nullptr);
    }
}

SqliteConnection::~SqliteConnection() {
    sqlite3_close(db_);
}

SqliteStatement SqliteConnection::prepare(const QString& sql) const {
    sqlite3_stmt* stmt = nullptr;
    const QByteArray utf8 = sql.toUtf8();
    const int rc = sqlite3_prepare_v2(db_, utf8.constData(), int(utf8.size()), &stmt, nullptr);
    if (rc != SQLITE_OK) fail(db_, rc, QString());
    return SqliteStatement(db_, stmt);
}

void SqliteConnection::execute(const QString& sql) const {
    char* error = nullptr;
    const int rc = sqlite3_exec(db_, sql.toUtf8().constData(), nullptr, nullptr, &error);
    if (rc != SQLITE_OK) {
        const QString message =
            error ? QString::fromUtf8(error) : QString::fromUtf8(sqlite3_errstr(rc));
        sqlite3_free(error);
        throw DatabaseError(message, rc & 0xff);
    }
}

bool SqliteConnection::hasTable(const QString& name) const {
    auto stmt = prepare(
        QStringLiteral("SELECT 1 FROM sqlite_master WHERE type IN ('table','view') AND name = ?"));
    stmt.bind(1, name);
    return stmt.step();
}

bool SqliteConnection::hasColumn(const QString& table, const QString& column) const {
    auto stmt = prepare(QStringLiteral("SELECT 1 FROM pragma_table_info(?) WHERE name = ?"));
    stmt.bind(1, table).bind(2, column);
    return stmt.step();
}

SqliteStatement::~SqliteStatement() {
    sqlite3_finalize(stmt_);
}

SqliteStatement::SqliteStatement(SqliteStatement&& other) noexcept
    : db_(other.db_), stmt_(other.stmt_) {
    other.stmt_ = nullptr;
}

SqliteStatement& SqliteStatement::bind(int index, std::int64_t value) {
    const int rc = sqlite3_bind_int64(stmt_, index, value);
    if (rc != SQLITE_OK) fail(db_, rc, QStringLiteral("bind"));
    return *this;
}

SqliteStatement& SqliteStatement::bind(int index, const QString& value) {
    const QByteArray utf8 = value.toUtf8();
    const int rc =
        sqlite3_bind_text(stmt_, index, utf8.constData(), int(utf8.size()), SQLITE_TRANSIENT);
    if (rc != SQLITE_OK) fail(db_, rc, QStringLiteral("bind"));
    return *this;
}

SqliteStatement& SqliteStatement::bindNull(int index) {
    const int rc = sqlite3_bind_null(stmt_, index);
    if (rc != SQLITE_OK) fail(db_, rc, QStringLiteral("bind"));
    return *this;
}

SqliteStatement& SqliteStatement::bind(const char* name, std::int64_t value) {
    const int index = sqlite3_bind_parameter_index(stmt_, name);
    return index > 0 ? bind(index, value) : *this;
}

SqliteStatement& SqliteStatement::bind(const char* name, const QString& value) {
    const int index = sqlite3_bind_parameter_index(stmt_, name);
    return index > 0 ? bind(index, value) : *this;
}

bool SqliteStatement::step() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    fail(db_, rc, QString());
}

void SqliteStatement::reset() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
}

int SqliteStatement::columnCount() const {
    return sqlite3_column_count(stmt_);
}

bool SqliteStatement::isNull(int column) const {
    return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

std::int64_t SqliteStatement::integer(int column) const {
    return sqlite3_column_int64(stmt_, column);
}

double SqliteStatement::real(int column) const {
    return sqlite3_column_double(stmt_, column);
}

QString SqliteStatement::text(int column) const {
    const auto* data = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, column));
    const int size = sqlite3_column_bytes(stmt_, column);
    return data ? QString::fromUtf8(data, size) : QString();
}

std::optional<std::int64_t> SqliteStatement::optionalInteger(int column) const {
    if (isNull(column)) return std::nullopt;
    return integer(column);
}

} // namespace firstrace::gui
