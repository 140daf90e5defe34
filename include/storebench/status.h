// Status and Result<T>: expected failures as values.
//
// A Status is either OK or carries a code and a one-sentence message meant for the user
// ("db_size '1.5GB' is not an integer followed by MB or GB"). Functions that can fail return
// Status or Result<T> and are [[nodiscard]]; exceptions never cross a layer boundary.
#ifndef STOREBENCH_INCLUDE_STOREBENCH_STATUS_H_
#define STOREBENCH_INCLUDE_STOREBENCH_STATUS_H_

#include <memory>
#include <string>
#include <utility>
#include <variant>

namespace sb {

enum class StatusCode {
  kOk = 0,
  kInvalidArgument,  // bad user input: option, config line, size, URL
  kNotFound,         // a file, table or row that must exist does not
  kAlreadyExists,    // refusing to overwrite something
  kFailedPrecondition,  // e.g. database loaded at another size, empty database
  kIoError,
  kDbError,          // a database call failed (the back end classifies further)
  kCancelled,        // stopped by a signal
  kInternal,         // a broken invariant
};

// Why a database or I/O call failed, as the retry policy in driver/ needs to know it. Back ends
// classify their native errors into these (SQLSTATE, vendor codes, errno).
enum class ErrorCategory {
  kNone = 0,
  kSerialization,   // retry the transaction
  kDeadlock,        // retry the transaction
  kConstraint,      // unique/foreign key violation
  kConnectionLost,  // reconnect, then retry
  kTimeout,         // lock or statement timeout (SQLite: busy)
  kSyntax,          // a bug in our SQL: abort
  kOther,
};
const char* ErrorCategoryName(ErrorCategory c);

// OK is a null pointer, so creating, copying and testing an OK Status (every database call on
// the hot path returns one) costs no more than a pointer; only a failure allocates its details.
class [[nodiscard]] Status {
 public:
  Status() = default;  // OK
  Status(StatusCode code, std::string message)
      : state_(code == StatusCode::kOk
                   ? nullptr
                   : std::make_unique<State>(
                         State{code, std::move(message), ErrorCategory::kNone, {}, 0})) {}
  Status(const Status& other)
      : state_(other.state_ ? std::make_unique<State>(*other.state_) : nullptr) {}
  Status& operator=(const Status& other) {
    if (this != &other) state_ = other.state_ ? std::make_unique<State>(*other.state_) : nullptr;
    return *this;
  }
  Status(Status&&) noexcept = default;
  Status& operator=(Status&&) noexcept = default;
  ~Status() = default;

  static Status Ok() { return Status(); }
  static Status InvalidArgument(std::string m) { return {StatusCode::kInvalidArgument, std::move(m)}; }
  static Status NotFound(std::string m) { return {StatusCode::kNotFound, std::move(m)}; }
  static Status AlreadyExists(std::string m) { return {StatusCode::kAlreadyExists, std::move(m)}; }
  static Status FailedPrecondition(std::string m) {
    return {StatusCode::kFailedPrecondition, std::move(m)};
  }
  static Status IoError(std::string m) { return {StatusCode::kIoError, std::move(m)}; }
  static Status DbError(std::string m) { return {StatusCode::kDbError, std::move(m)}; }
  static Status Cancelled(std::string m) { return {StatusCode::kCancelled, std::move(m)}; }
  static Status Internal(std::string m) { return {StatusCode::kInternal, std::move(m)}; }

  // A failed database call: code kDbError plus its classification and native identifiers.
  static Status Db(ErrorCategory category, std::string message, std::string sqlstate = "",
                   int native_code = 0) {
    Status s(StatusCode::kDbError, std::move(message));
    s.state_->category = category;
    s.state_->sqlstate = std::move(sqlstate);
    s.state_->native_code = native_code;
    return s;
  }

  bool ok() const { return state_ == nullptr; }
  ErrorCategory category() const { return state_ ? state_->category : ErrorCategory::kNone; }
  const std::string& sqlstate() const { return state_ ? state_->sqlstate : Empty(); }
  int native_code() const { return state_ ? state_->native_code : 0; }
  StatusCode code() const { return state_ ? state_->code : StatusCode::kOk; }
  const std::string& message() const { return state_ ? state_->message : Empty(); }
  // Used when a caller wants to ignore a Status on purpose (cleanup paths).
  void IgnoreError() const {}

 private:
  struct State {
    StatusCode code;
    std::string message;
    ErrorCategory category = ErrorCategory::kNone;
    std::string sqlstate;
    int native_code = 0;
  };
  static const std::string& Empty();

  std::unique_ptr<State> state_;  // null: OK
};

// Either a value or a non-OK Status.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}  // NOLINT(google-explicit-constructor)
  Result(Status status) : v_(std::move(status)) {}  // NOLINT(google-explicit-constructor)

  bool ok() const { return std::holds_alternative<T>(v_); }
  // REQUIRES: !ok()
  const Status& status() const { return std::get<Status>(v_); }
  // REQUIRES: ok()
  T& value() & { return std::get<T>(v_); }
  const T& value() const& { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }

 private:
  std::variant<T, Status> v_;
};

}  // namespace sb

// Returns early from the enclosing function when `expr` yields a non-OK Status.
#define SB_RETURN_IF_ERROR(expr)           \
  do {                                     \
    ::sb::Status sb_status_ = (expr);      \
    if (!sb_status_.ok()) return sb_status_; \
  } while (0)

#endif  // STOREBENCH_INCLUDE_STOREBENCH_STATUS_H_
