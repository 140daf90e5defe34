// SmallList<T, N>: a list that keeps its first N items in place and the rest in a vector, for
// the few items a unit of work records per operation (its steps and counts). A push is a store
// and an increment, clearing it a store; a std::vector cost a unit with one count about 40
// instructions more (callgrind, docs/driver-cost.md).
#ifndef STOREBENCH_BASE_SMALL_LIST_H_
#define STOREBENCH_BASE_SMALL_LIST_H_

#include <array>
#include <vector>

namespace sb {

template <typename T, int N>
class SmallList {
 public:
  void clear() {
    if (size_ == N) [[unlikely]] more_.clear();  // only a full list has more
    size_ = 0;
  }
  bool empty() const { return size_ == 0; }
  void push_back(const T& item) {
    if (size_ < N) [[likely]] {
      inline_[size_++] = item;
    } else {
      PushMore(item);
    }
  }
  // Calls f(item) for every item, in the order pushed.
  template <typename F>
  void ForEach(F f) const {
    for (int i = 0; i < size_; ++i) f(inline_[i]);
    if (size_ == N) [[unlikely]] {
      for (const T& item : more_) f(item);
    }
  }

 private:
  // Out of line, so that a push saves no registers for the vector's growth.
  [[gnu::noinline]] void PushMore(const T& item) { more_.push_back(item); }
  int size_ = 0;
  std::array<T, N> inline_{};
  std::vector<T> more_;  // after the first N
};

}  // namespace sb

#endif  // STOREBENCH_BASE_SMALL_LIST_H_
