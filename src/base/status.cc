#include "storebench/status.h"

namespace sb {

const std::string& Status::Empty() {
  static const std::string* empty = new std::string();  // never destroyed: usable at exit
  return *empty;
}

const char* ErrorCategoryName(ErrorCategory c) {
  switch (c) {
    case ErrorCategory::kNone: return "none";
    case ErrorCategory::kSerialization: return "serialization";
    case ErrorCategory::kDeadlock: return "deadlock";
    case ErrorCategory::kConstraint: return "constraint";
    case ErrorCategory::kConnectionLost: return "connection_lost";
    case ErrorCategory::kTimeout: return "timeout";
    case ErrorCategory::kSyntax: return "syntax";
    case ErrorCategory::kOther: return "other";
  }
  return "other";
}

}  // namespace sb
