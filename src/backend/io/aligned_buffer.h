// Heap memory aligned for O_DIRECT (4096 bytes covers every logical block size in use).
#ifndef STOREBENCH_BACKEND_IO_ALIGNED_BUFFER_H_
#define STOREBENCH_BACKEND_IO_ALIGNED_BUFFER_H_

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>

namespace sb::io {

inline constexpr size_t kDirectAlignment = 4096;

class AlignedBuffer {
 public:
  AlignedBuffer() = default;
  // Zero-filled, `size` rounded up to a multiple of kDirectAlignment.
  explicit AlignedBuffer(size_t size);
  uint8_t* data() { return data_.get(); }
  const uint8_t* data() const { return data_.get(); }
  size_t size() const { return size_; }

 private:
  struct Free {
    void operator()(uint8_t* p) const { std::free(p); }
  };
  std::unique_ptr<uint8_t, Free> data_;
  size_t size_ = 0;
};

}  // namespace sb::io

#endif  // STOREBENCH_BACKEND_IO_ALIGNED_BUFFER_H_
