// Measuring free space for DbBackend::FreeSpace: one directory's file system, and whether a
// server's host is this machine (only then is its data directory's file system ours to measure).
#ifndef STOREBENCH_BACKEND_DB_STORAGE_SPACE_H_
#define STOREBENCH_BACKEND_DB_STORAGE_SPACE_H_

#include <string>

#include "storebench/db.h"

namespace sb::db {

// statvfs(2) of `dir`: known with the bytes free to unprivileged writers, or unknown with one
// sentence naming the directory and the error.
StorageSpace SpaceOfDirectory(const std::string& dir);

// True when `host` (a URL's host) is this machine: empty (the client's default, a local
// socket), a socket directory ("/run/postgresql"), localhost or a loopback address.
bool IsLocalHost(const std::string& host);

// FreeSpace of a server back end: `used_sql` (one integer: the database's bytes now) and, when
// `host` is this machine, `datadir_sql` (one text: the server's data directory), measured with
// SpaceOfDirectory. A remote server, or a data directory the account may not read, is unknown
// with the reason; a server that cannot be reached is the connection's error.
Result<StorageSpace> ServerSpace(DbBackend& backend, const std::string& host,
                                 const std::string& used_sql, const std::string& datadir_sql);

}  // namespace sb::db

#endif  // STOREBENCH_BACKEND_DB_STORAGE_SPACE_H_
