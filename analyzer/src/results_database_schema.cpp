#include "results_database_schema.hpp"

#include <cstdio>

#include "results_database_sqlite.hpp"

namespace firstrace::db {

int check_database(Connection& connection) {
    const std::int64_t application_id = connection.query_int("PRAGMA application_id");
    const std::int64_t version = connection.query_int("PRAGMA user_version");
    const std::int64_t objects = connection.query_int("SELECT count(*) FROM sqlite_master");
    if (application_id == 0 && version == 0 && objects == 0) return 0;
    if (application_id != kApplicationId) {
        char id[32];
        std::snprintf(id, sizeof id, "0x%08llx",
                      static_cast<unsigned long long>(application_id & 0xffffffff));
        throw InputError(
            connection.path(), 0,
            application_id == 0
                ? std::string(
                      "not a firstrace results database (an SQLite database of another program)")
                : "not a firstrace results database (application_id " + std::string(id) + ")");
    }
    if (version > kSchemaVersion)
        throw InputError(connection.path(), 0,
                         "schema version " + std::to_string(version) +
                             " is newer than this firstrace supports (" +
                             std::to_string(kSchemaVersion) + "); use a newer firstrace");
    if (version < 1)
        throw InputError(connection.path(), 0,
                         "invalid firstrace schema version " + std::to_string(version));
    return static_cast<int>(version);
}

void check_integrity(Connection& connection, IntegrityCheck mode) {
    // quick_check skips index order and UNIQUE checks; the full check is linear in the file
    // with a larger constant, affordable up to kFullIntegrityCheckBytes.
    const std::int64_t bytes =
        connection.query_int("PRAGMA page_count") * connection.query_int("PRAGMA page_size");
    const bool full = mode == IntegrityCheck::Full ||
                      (mode == IntegrityCheck::Auto && bytes <= kFullIntegrityCheckBytes);
    Statement check =
        connection.prepare(full ? "PRAGMA integrity_check(1)" : "PRAGMA quick_check(1)");
    if (!check.step()) return;
    const std::string verdict = check.text(0);
    if (verdict != "ok")
        throw InputError(connection.path(), 0, "the database is corrupt (" + verdict + ")");
}

void create_schema(Connection& connection) {
    connection.exec(kSchemaSql);
    const std::int64_t version = connection.query_int("PRAGMA user_version");
    if (version != kSchemaVersion)
        throw std::logic_error("db-schema/schema.sql sets user_version " + std::to_string(version) +
                               ", the code expects " + std::to_string(kSchemaVersion));
}

void migrate(Connection& connection, int version) {
    for (const Migration& m : migrations()) {
        if (m.version <= version) continue;
        if (m.version != version + 1)
            throw std::logic_error("db-schema/migrations: no migration to version " +
                                   std::to_string(version + 1));
        connection.exec(m.sql);
        connection.exec("PRAGMA user_version = " + std::to_string(m.version));
        version = m.version;
    }
    if (version != kSchemaVersion)
        throw InputError(connection.path(), 0,
                         "no migration from schema version " + std::to_string(version) + " to " +
                             std::to_string(kSchemaVersion));
}

} // namespace firstrace::db
