// libaio: Linux native AIO (io_submit/io_getevents), as Iometer's Linux dynamo uses it.
#ifndef STOREBENCH_BACKEND_IO_LIBAIO_LIBAIO_ENGINE_H_
#define STOREBENCH_BACKEND_IO_LIBAIO_LIBAIO_ENGINE_H_

#include <memory>

#include "storebench/io_engine.h"

namespace sb::io {
Result<std::unique_ptr<IoEngine>> CreateLibaioEngine(const EngineOptions& options);
}  // namespace sb::io

#endif  // STOREBENCH_BACKEND_IO_LIBAIO_LIBAIO_ENGINE_H_
