// The results database schema as embedded from db-schema/schema.sql and migrations/ (see
// db-schema/CMakeLists.txt): the text, its version and the forward migrations.
#pragma once

#include <cstddef>
#include <vector>

namespace firstrace::db {

// "FRST": PRAGMA application_id of every firstrace database.
inline constexpr int kApplicationId = 0x46525354;
// PRAGMA user_version that db-schema/schema.sql creates.
inline constexpr int kSchemaVersion = 3;

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
