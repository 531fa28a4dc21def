# Libraries of the optional analyzer parts: zstd and libdw for the binary trace reader and
# symbolization, SQLite for the results store.
find_package(PkgConfig REQUIRED)
pkg_check_modules(ZSTD REQUIRED IMPORTED_TARGET libzstd)
pkg_check_modules(LIBDW REQUIRED IMPORTED_TARGET libdw)
find_package(SQLite3 REQUIRED)
target_link_libraries(firstrace_analyzer PUBLIC PkgConfig::ZSTD PkgConfig::LIBDW SQLite::SQLite3)
