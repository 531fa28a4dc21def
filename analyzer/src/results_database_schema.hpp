// The checks every open of a results database goes through (application_id, user_version,
// integrity) and the creation and migration of the schema embedded by db-schema/.
#pragma once

#include "firstrace/results_database.hpp"

#include <cstdint>

#include <firstrace/db_schema.hpp>

namespace firstrace::db {

class Connection;

// The schema version of a firstrace database, or 0 for an empty file (no tables, no
// application_id) that may become one. Throws InputError naming the file when it is not a
// firstrace database, its version is newer than kSchemaVersion, or it cannot be read.
int check_database(Connection& connection);
// Databases up to this size get PRAGMA integrity_check before a run is appended, larger ones
// PRAGMA quick_check (which does not verify index order).
inline constexpr std::int64_t kFullIntegrityCheckBytes = std::int64_t{256} << 20;

// Verifies the file's structure before it is written to (`mode`: see IntegrityCheck).
void check_integrity(Connection& connection, IntegrityCheck mode);
// Creates the current schema in an empty database (inside the caller's transaction).
void create_schema(Connection& connection);
// Applies the migrations from `version` to kSchemaVersion (inside the caller's transaction).
void migrate(Connection& connection, int version);

} // namespace firstrace::db
