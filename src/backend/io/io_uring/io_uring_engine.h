// io_uring through liburing: one ring per worker, files registered with the ring.
#ifndef STOREBENCH_BACKEND_IO_IO_URING_IO_URING_ENGINE_H_
#define STOREBENCH_BACKEND_IO_IO_URING_IO_URING_ENGINE_H_

#include <memory>

#include "storebench/io_engine.h"

namespace sb::io {
Result<std::unique_ptr<IoEngine>> CreateIoUringEngine(const EngineOptions& options);
}  // namespace sb::io

#endif  // STOREBENCH_BACKEND_IO_IO_URING_IO_URING_ENGINE_H_
