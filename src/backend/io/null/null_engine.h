// null: completes every request at once without touching the file (measures the harness).
#ifndef STOREBENCH_BACKEND_IO_NULL_NULL_ENGINE_H_
#define STOREBENCH_BACKEND_IO_NULL_NULL_ENGINE_H_

#include <memory>

#include "storebench/io_engine.h"

namespace sb::io {
Result<std::unique_ptr<IoEngine>> CreateNullEngine(const EngineOptions& options);
}  // namespace sb::io

#endif  // STOREBENCH_BACKEND_IO_NULL_NULL_ENGINE_H_
