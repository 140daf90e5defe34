// psync: pread/pwrite, one request at a time inside Reap (like fio's psync engine).
#ifndef STOREBENCH_BACKEND_IO_SYNC_PSYNC_ENGINE_H_
#define STOREBENCH_BACKEND_IO_SYNC_PSYNC_ENGINE_H_

#include <memory>

#include "storebench/io_engine.h"

namespace sb::io {
Result<std::unique_ptr<IoEngine>> CreatePsyncEngine(const EngineOptions& options);
}  // namespace sb::io

#endif  // STOREBENCH_BACKEND_IO_SYNC_PSYNC_ENGINE_H_
