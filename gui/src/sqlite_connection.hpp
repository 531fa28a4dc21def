// A small RAII layer over the SQLite C API: a read-only connection and prepared statements.
// Every failure becomes a DatabaseError carrying SQLite's message and result code.
#pragma once

#include <QString>

#include <cstdint>
#include <optional>
#include <stdexcept>

struct sqlite3;
struct sqlite3_stmt;

namespace firstrace::gui {

class DatabaseError : public std::runtime_error {
  public:
    DatabaseError(const QString& message, int code)
        : std::runtime_error(message.toStdString()), code_(code) {}
    int code() const { return code_; }
    QString message() const { return QString::fromStdString(what()); }

  private:
    int code_;
};

class SqliteStatement;

class SqliteConnection {
  public:
    enum class Mode { ReadOnly, ReadWriteCreate };
    // Throws DatabaseError. ReadOnly never creates the file.
    SqliteConnection(const QString& path, Mode mode);
    ~SqliteConnection();
    SqliteConnection(const SqliteConnection&) = delete;
    SqliteConnection& operator=(const SqliteConnection&) = delete;

    SqliteStatement prepare(const QString& sql) const;
    // Runs one or more statements without results (schema scripts, pragmas).
    void execute(const QString& sql) const;
    bool hasTable(const QString& name) const;
    bool hasColumn(const QString& table, const QString& column) const;
    sqlite3* handle() const { return db_; }
    const QString& path() const { return path_; }

  private:
    sqlite3* db_ = nullptr;
    QString path_;
};

class SqliteStatement {
  public:
    SqliteStatement(sqlite3* db, sqlite3_stmt* stmt) : db_(db), stmt_(stmt) {}
    ~SqliteStatement();
    SqliteStatement(SqliteStatement&& other) noexcept;
    SqliteStatement& operator=(SqliteStatement&&) = delete;
    SqliteStatement(const SqliteStatement&) = delete;
    SqliteStatement& operator=(const SqliteStatement&) = delete;

    // Parameters are numbered from 1, as in SQLite.
    SqliteStatement& bind(int index, std::int64_t value);
    SqliteStatement& bind(int index, const QString& value);
    SqliteStatement& bindNull(int index);
    // Binds by name (":name"); a name the statement does not use is ignored.
    SqliteStatement& bind(const char* name, std::int64_t value);
    SqliteStatement& bind(const char* name, const QString& value);

    // Advances to the next row; false when done. Throws DatabaseError.
    bool step();
    void reset();

    int columnCount() const;
    bool isNull(int column) const;
    std::int64_t integer(int column) const;
    double real(int column) const;
    QString text(int column) const;
    std::optional<std::int64_t> optionalInteger(int column) const;

  private:
    sqlite3* db_;
    sqlite3_stmt* stmt_;
};

} // namespace firstrace::gui
