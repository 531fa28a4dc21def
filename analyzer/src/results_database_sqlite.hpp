// A thin RAII layer over the SQLite C API for the results database: a connection that turns
// every failure into an InputError naming the database file, and prepared statements.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "firstrace/errors.hpp"

namespace firstrace::db {

class Connection;

class Statement {
  public:
    Statement() = default;
    Statement(Connection& connection, const char* sql);
    ~Statement() { sqlite3_finalize(stmt_); }
    Statement(Statement&& o) noexcept
        : connection_(o.connection_), stmt_(std::exchange(o.stmt_, nullptr)), work_(o.work_) {}
    Statement& operator=(Statement&& o) noexcept {
        std::swap(connection_, o.connection_);
        std::swap(stmt_, o.stmt_);
        std::swap(work_, o.work_);
        return *this;
    }
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    Statement& bind(int index, std::int64_t value) {
        check(sqlite3_bind_int64(stmt_, index, value));
        return *this;
    }
    Statement& bind(int index, std::uint64_t value) {
        return bind(index, static_cast<std::int64_t>(value));
    }
    Statement& bind(int index, std::uint32_t value) {
        return bind(index, static_cast<std::int64_t>(value));
    }
    Statement& bind(int index, int value) { return bind(index, static_cast<std::int64_t>(value)); }
    Statement& bind(int index, bool value) {
        return bind(index, static_cast<std::int64_t>(value ? 1 : 0));
    }
    Statement& bind(int index, double value) {
        check(sqlite3_bind_double(stmt_, index, value));
        return *this;
    }
    // SQLite copies the text, so temporaries are fine.
    Statement& bind(int index, std::string_view text) {
        check(sqlite3_bind_text(stmt_, index, text.data(), static_cast<int>(text.size()),
                                SQLITE_TRANSIENT));
        return *this;
    }
    Statement& bind(int index, const std::string& text) {
        return bind(index, std::string_view(text));
    }
    // No copy: the text must stay unchanged until the statement has run.
    Statement& bind_static(int index, std::string_view text) {
        check(sqlite3_bind_text(stmt_, index, text.data(), static_cast<int>(text.size()),
                                SQLITE_STATIC));
        return *this;
    }
    Statement& bind(int index, const char* text) { return bind(index, std::string_view(text)); }
    Statement& bind_null(int index) {
        check(sqlite3_bind_null(stmt_, index));
        return *this;
    }
    template <class T> Statement& bind(int index, const std::optional<T>& value) {
        return value ? bind(index, *value) : bind_null(index);
    }
    bool prepared() const { return stmt_ != nullptr; } // false once moved from
    // The index of named parameter `name` (":run"), 0 when the statement does not use it.
    int parameter(const char* name) const { return sqlite3_bind_parameter_index(stmt_, name); }

    // Advances to the next row: true when there is one, false when done.
    bool step();
    // Runs a statement that returns no rows, then resets it for the next bindings.
    void run() {
        while (step()) {
        }
        reset();
    }
    void reset() {
        sqlite3_reset(stmt_);
        sqlite3_clear_bindings(stmt_);
    }

    bool is_null(int column) const { return sqlite3_column_type(stmt_, column) == SQLITE_NULL; }
    std::int64_t int64(int column) const { return sqlite3_column_int64(stmt_, column); }
    std::uint32_t uint32(int column) const {
        return static_cast<std::uint32_t>(sqlite3_column_int64(stmt_, column));
    }
    double real(int column) const { return sqlite3_column_double(stmt_, column); }
    std::string text(int column) const {
        const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, column));
        return p ? std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column)))
                 : std::string();
    }
    std::optional<std::string> optional_text(int column) const {
        if (is_null(column)) return std::nullopt;
        return text(column);
    }
    std::optional<std::int64_t> optional_int64(int column) const {
        if (is_null(column)) return std::nullopt;
        return int64(column);
    }

  private:
    void check(int rc);
    Connection* connection_ = nullptr;
    sqlite3_stmt* stmt_ = nullptr;
    // Instructions of SQLite's virtual machine this execution ran so far (Connection::limit_work).
    std::int64_t work_ = 0;
};

class Connection {
  public:
    enum class Mode { ReadOnly, ReadWrite, ReadWriteCreate };
    // `named` is what messages call the database when `path` is not it (":memory:" holding a
    // copy of a file).
    Connection(const std::string& path, Mode mode, const std::string& named = {});
    ~Connection() { sqlite3_close_v2(db_); }
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;

    sqlite3* get() const { return db_; }
    const std::string& path() const { return path_; }
    void exec(const char* sql);
    void exec(const std::string& sql) { exec(sql.c_str()); }
    Statement prepare(const char* sql) { return Statement(*this, sql); }
    // A single integer from a query (a pragma, a count).
    std::int64_t query_int(const char* sql);
    // Throws InputError("<path>: <what>: <sqlite message>") with a readable wording of the
    // common failures (not a database, corrupt, locked, read-only, too much work).
    [[noreturn]] void fail(const std::string& what, int rc);

    // Bounds the work of every statement execution (from its first step to its reset, all rows
    // together) and of every exec() to `instructions` of SQLite's virtual machine; beyond, the
    // statement is interrupted and fails with an InputError. A damaged or hostile database can
    // make a query plan degenerate (a mutated schema that loses an index turns lookups into
    // nested scans): the reader then fails in bounded time instead of running for minutes
    // (issue 13). 0: no bound (the default).
    void limit_work(std::int64_t instructions);
    // The work bound for reading a database file of `bytes`, generous enough for every query
    // of the reader and the browser on an intact database (they are at most linear in the rows
    // they visit, a few hundred instructions per row, and a row takes several bytes).
    static std::int64_t work_limit_for(std::uintmax_t bytes);

  private:
    friend class Statement;
    static int count_work(void* connection);
    std::string path_;
    sqlite3* db_ = nullptr;
    std::int64_t work_limit_ = 0;
    std::int64_t* work_ = nullptr; // the counter of what runs now (a step, an exec)
    std::int64_t exec_work_ = 0;
    bool work_exceeded_ = false;
};

// Prepared statements kept for reuse by their SQL text. The browser answers a click with
// dozens of short lookups (a calling context of 128 frames, each with its inlined calls):
// preparing each again cost more than running it. A statement in use is leased; a second
// lease of the same text while the first is out prepares another one.
class StatementCache {
  public:
    // A prepared statement of the cache; reset and returned to it when the lease ends.
    class Lease : public Statement {
      public:
        Lease(Statement statement, std::vector<Statement>& idle)
            : Statement(std::move(statement)), idle_(&idle) {}
        Lease(Lease&&) noexcept = default;
        Lease& operator=(Lease&&) = delete;
        Lease(const Lease&) = delete;
        Lease& operator=(const Lease&) = delete;
        ~Lease() {
            if (!prepared()) return;
            reset();
            idle_->push_back(static_cast<Statement&&>(*this));
        }

      private:
        std::vector<Statement>* idle_;
    };

    explicit StatementCache(Connection& connection) : connection_(connection) {}
    // The set of texts is finite (the browser's queries and their filter combinations), so the
    // cache is never trimmed: a Lease points into it.
    Lease prepare(const std::string& sql) {
        std::vector<Statement>& idle = idle_[sql];
        if (idle.empty()) return Lease(connection_.prepare(sql.c_str()), idle);
        Statement statement = std::move(idle.back());
        idle.pop_back();
        return Lease(std::move(statement), idle);
    }

  private:
    Connection& connection_;
    std::unordered_map<std::string, std::vector<Statement>> idle_;
};

// Translates SQLite result codes into the words a user can act on.
std::string describe_sqlite_error(int rc, const char* message);

} // namespace firstrace::db

namespace firstrace::db {

// Bulk insertion into one table: rows are buffered and written `batch` at a time by one
// multi-row INSERT, which costs a fraction of a statement execution per row. finish() (or the
// destructor, which may not throw) writes the rest.
class BulkInsert {
  public:
    BulkInsert(Connection& connection, const std::string& table, int columns, int batch = 64);
    ~BulkInsert();
    BulkInsert(const BulkInsert&) = delete;
    BulkInsert& operator=(const BulkInsert&) = delete;

    BulkInsert& add(std::int64_t v) {
        values_.push_back({Value::Int, v, {}});
        return *this;
    }
    BulkInsert& add(std::uint64_t v) { return add(static_cast<std::int64_t>(v)); }
    BulkInsert& add(std::uint32_t v) { return add(static_cast<std::int64_t>(v)); }
    BulkInsert& add(int v) { return add(static_cast<std::int64_t>(v)); }
    BulkInsert& add(bool v) { return add(static_cast<std::int64_t>(v ? 1 : 0)); }
    BulkInsert& add(std::string_view v) {
        values_.push_back({Value::Text, 0, std::string(v)});
        return *this;
    }
    BulkInsert& add(const char* v) { return add(std::string_view(v)); }
    BulkInsert& add(const std::string& v) { return add(std::string_view(v)); }
    BulkInsert& add_null() {
        values_.push_back({Value::Null, 0, {}});
        return *this;
    }
    template <class T> BulkInsert& add(const std::optional<T>& v) {
        return v ? add(*v) : add_null();
    }
    // Ends the current row (which must have exactly `columns` values).
    void end_row();
    void finish();

  private:
    struct Value {
        enum Kind { Null, Int, Text } kind;
        std::int64_t i;
        std::string text;
    };
    void flush(Statement& statement, std::size_t rows);

    int columns_;
    int batch_;
    Statement many_;
    Statement one_;
    std::vector<Value> values_;
};

} // namespace firstrace::db
