#include "backend/io/null/null_engine.h"

#include <vector>

namespace sb::io {
namespace {

class NullEngine final : public IoEngine {
 public:
  explicit NullEngine(int depth) : depth_(depth) { pending_.reserve(depth); }
  const char* name() const override { return "null"; }
  bool is_async() const override { return true; }
  // Opens nothing: the null engine must not need (or touch) a real file.
  Result<int> Open(const std::string& path, const FileOptions& options) override {
    return files_++;
  }
  Result<int> Submit(const IoRequest* requests, int n) override {
    int accepted = 0;
    while (accepted < n && static_cast<int>(pending_.size()) < depth_) {
      pending_.push_back({requests[accepted].tag, requests[accepted].length});
      ++accepted;
    }
    return accepted;
  }
  Result<int> Reap(IoCompletion* out, int min_complete, int max) override {
    int done = 0;
    while (done < max && !pending_.empty()) {
      out[done++] = pending_.back();
      pending_.pop_back();
    }
    return done;
  }
  void Close() override { pending_.clear(); }

 private:
  int depth_;
  int files_ = 0;
  std::vector<IoCompletion> pending_;
};

}  // namespace

Result<std::unique_ptr<IoEngine>> CreateNullEngine(const EngineOptions& options) {
  return std::unique_ptr<IoEngine>(std::make_unique<NullEngine>(options.queue_depth));
}

}  // namespace sb::io
