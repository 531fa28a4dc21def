#include "results_database_sqlite.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace firstrace::db {

namespace {
// The progress handler runs every kWorkTick instructions of SQLite's virtual machine.
constexpr int kWorkTick = 1000;
// Every database may do this much per statement (a tenth of a second), whatever its size.
constexpr std::int64_t kMinimumWork = std::int64_t{1} << 22;
// Instructions per byte of the database file; an intact database needs far less (DESIGN-NOTES,
// "Bounded work on hostile databases").
constexpr std::int64_t kWorkPerByte = 64;
} // namespace

std::string describe_sqlite_error(int rc, const char* message) {
    switch (rc & 0xff) {
    case SQLITE_NOTADB:
        return "not an SQLite database (file is not a database)";
    case SQLITE_CORRUPT:
        return "the database is corrupt (" + std::string(message ? message : "malformed") + ")";
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        return "the database is locked by another process";
    case SQLITE_READONLY:
        return "the database is read-only";
    case SQLITE_CANTOPEN:
        return "cannot open the file";
    case SQLITE_FULL:
        return "the disk is full";
    case SQLITE_IOERR:
        return "I/O error (" + std::string(message ? message : "") + ")";
    case SQLITE_INTERRUPT:
        return "interrupted";
    default:
        return message ? message : sqlite3_errstr(rc);
    }
}

Statement::Statement(Connection& connection, const char* sql) : connection_(&connection) {
    const int rc = sqlite3_prepare_v2(connection.get(), sql, -1, &stmt_, nullptr);
    if (rc != SQLITE_OK) connection.fail("cannot read the database", rc);
}

void Statement::check(int rc) {
    if (rc != SQLITE_OK) connection_->fail("cannot bind a value", rc);
}

bool Statement::step() {
    // A statement that is not busy starts a new execution: its work counts from zero.
    if (!sqlite3_stmt_busy(stmt_)) work_ = 0;
    connection_->work_exceeded_ = false;
    std::int64_t* const outer = std::exchange(connection_->work_, &work_);
    const int rc = sqlite3_step(stmt_);
    connection_->work_ = outer;
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    sqlite3_reset(stmt_);
    connection_->fail("database access failed", rc);
}

Connection::Connection(const std::string& path, Mode mode, const std::string& named)
    : path_(named.empty() ? path : named) {
    const int flags = mode == Mode::ReadOnly    ? SQLITE_OPEN_READONLY
                      : mode == Mode::ReadWrite ? SQLITE_OPEN_READWRITE
                                                : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    const int rc = sqlite3_open_v2(path.c_str(), &db_, flags | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK) fail("cannot open the database", rc);
    sqlite3_extended_result_codes(db_, 1);
    sqlite3_busy_timeout(db_, 5000);
}

void Connection::limit_work(std::int64_t instructions) {
    work_limit_ = instructions;
    sqlite3_progress_handler(db_, instructions > 0 ? kWorkTick : 0,
                             instructions > 0 ? count_work : nullptr, this);
}

std::int64_t Connection::work_limit_for(std::uintmax_t bytes) {
    const auto most =
        static_cast<std::uintmax_t>(std::numeric_limits<std::int64_t>::max() / kWorkPerByte);
    return std::max(kMinimumWork, static_cast<std::int64_t>(std::min(bytes, most)) * kWorkPerByte);
}

int Connection::count_work(void* connection) {
    Connection& c = *static_cast<Connection*>(connection);
    if (c.work_ == nullptr) return 0;
    *c.work_ += kWorkTick;
    if (*c.work_ <= c.work_limit_) return 0;
    c.work_exceeded_ = true;
    return 1; // interrupts the statement: SQLITE_INTERRUPT
}

void Connection::exec(const char* sql) {
    char* message = nullptr;
    exec_work_ = 0;
    work_exceeded_ = false;
    std::int64_t* const outer = std::exchange(work_, &exec_work_);
    const int rc = sqlite3_exec(db_, sql, nullptr, nullptr, &message);
    work_ = outer;
    if (rc != SQLITE_OK) {
        if ((rc & 0xff) == SQLITE_INTERRUPT && work_exceeded_) {
            sqlite3_free(message);
            fail("", rc);
        }
        const std::string text = message ? message : "";
        sqlite3_free(message);
        throw InputError(path_, 0,
                         describe_sqlite_error(rc, text.empty() ? nullptr : text.c_str()));
    }
}

std::int64_t Connection::query_int(const char* sql) {
    Statement s(*this, sql);
    if (!s.step()) return 0;
    return s.int64(0);
}

void Connection::fail(const std::string& what, int rc) {
    const char* message = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    const int primary = rc & 0xff;
    if (primary == SQLITE_INTERRUPT && work_exceeded_) {
        work_exceeded_ = false;
        throw InputError(path_, 0,
                         "the database is damaged: a query did not finish within " +
                             std::to_string(work_limit_) +
                             " steps of SQLite, the bound for a database of this size");
    }
    // For the failures a user recognizes, the description alone says it best.
    if (primary == SQLITE_NOTADB || primary == SQLITE_CORRUPT || primary == SQLITE_BUSY ||
        primary == SQLITE_LOCKED || primary == SQLITE_READONLY || primary == SQLITE_FULL)
        throw InputError(path_, 0, describe_sqlite_error(rc, message));
    throw InputError(path_, 0, what + ": " + describe_sqlite_error(rc, message));
}

} // namespace firstrace::db

namespace firstrace::db {

namespace {
std::string insert_sql(const std::string& table, int columns, int rows) {
    std::string row = "(";
    for (int c = 0; c < columns; ++c)
        row += c ? ",?" : "?";
    row += ")";
    std::string sql = "INSERT INTO " + table + " VALUES ";
    for (int r = 0; r < rows; ++r)
        sql += (r ? "," : "") + row;
    return sql;
}
} // namespace

BulkInsert::BulkInsert(Connection& connection, const std::string& table, int columns, int batch)
    : columns_(columns), batch_(batch),
      many_(connection, insert_sql(table, columns, batch).c_str()),
      one_(connection, insert_sql(table, columns, 1).c_str()) {
    values_.reserve(static_cast<std::size_t>(columns) * static_cast<std::size_t>(batch));
}

BulkInsert::~BulkInsert() {
    // Rows not finished explicitly are dropped: the transaction is being abandoned anyway.
}

void BulkInsert::end_row() {
    if (values_.size() % static_cast<std::size_t>(columns_) != 0)
        throw std::logic_error("BulkInsert: a row with the wrong number of values");
    if (values_.size() == static_cast<std::size_t>(columns_) * static_cast<std::size_t>(batch_)) {
        flush(many_, static_cast<std::size_t>(batch_));
    }
}

void BulkInsert::finish() {
    const std::size_t rows = values_.size() / static_cast<std::size_t>(columns_);
    for (std::size_t r = 0; r < rows; ++r) {
        for (int c = 0; c < columns_; ++c) {
            const Value& v =
                values_[r * static_cast<std::size_t>(columns_) + static_cast<std::size_t>(c)];
            if (v.kind == Value::Int)
                one_.bind(c + 1, v.i);
            else if (v.kind == Value::Text)
                one_.bind(c + 1, std::string_view(v.text));
            else
                one_.bind_null(c + 1);
        }
        one_.run();
    }
    values_.clear();
}

void BulkInsert::flush(Statement& statement, std::size_t rows) {
    const std::size_t n = rows * static_cast<std::size_t>(columns_);
    for (std::size_t i = 0; i < n; ++i) {
        const Value& v = values_[i];
        const int index = static_cast<int>(i) + 1;
        if (v.kind == Value::Int)
            statement.bind(index, v.i);
        else if (v.kind == Value::Text)
            statement.bind_static(index, v.text);
        else
            statement.bind_null(index);
    }
    statement.run();
    values_.clear();
}

} // namespace firstrace::db
