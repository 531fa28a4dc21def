// The results database schema as embedded from db-schema/ (see db-schema/CMakeLists.txt) and
// the checks every open goes through: application_id, user_version, forward migrations.
#pragma once

#include <cstddef>
#include <vector>

namespace firstrace::db {

// "FRST": PRAGMA application_id of every firstrace database.
inline constexpr int kApplicationId = 0x46525354;
// PRAGMA user_version that db-schema/schema.sql creates.
inline constexpr int kSchemaVersion = 1;

struct Migration {
    int version;      // the version this migration produces (from version - 1)
    const char* name; // file name in db-schema/migrations/
    const char* sql;
};

extern const char* const kSchemaSql;
extern const Migration kMigrationTable[];
extern const std::size_t kMigrationTableSize;

// The migrations in version order (the generated table may hold one empty sentinel entry).
inline std::vector<Migration> migrations() {
    std::vector<Migration> out;
    for (std::size_t i = 0; i < kMigrationTableSize; ++i)
        if (kMigrationTable[i].sql != nullptr) out.push_back(kMigrationTable[i]);
    return out;
}

} // namespace firstrace::db

namespace firstrace::db {

class Connection;

// The schema version of a firstrace database, or 0 for an empty file (no tables, no
// application_id) that may become one. Throws InputError naming the file when it is not a
// firstrace database, its version is newer than kSchemaVersion, or it cannot be read.
int check_database(Connection& connection);
// Verifies the file's structure (PRAGMA quick_check) before it is written to.
void check_integrity(Connection& connection);
// Creates the current schema in an empty database (inside the caller's transaction).
void create_schema(Connection& connection);
// Applies the migrations from `version` to kSchemaVersion (inside the caller's transaction).
void migrate(Connection& connection, int version);

} // namespace firstrace::db
