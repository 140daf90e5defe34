#include <cstdio>

#include "base/strings.h"
#include "cli/app.h"
#include "dist/world.h"

namespace sb::cli {

int Fail(const Status& s) {
  // Under mpirun only rank 0's console is seen: a rank failing on its own before the run tells
  // the others, and rank 0 prints it (docs/scale-out.md).
  if (dist::Group* g = dist::World(); g != nullptr) g->TellFailure(s);
  // Messages quote user input (config lines, ICF names, paths): escaped, never sent raw.
  std::fprintf(stderr, "storebench: %s\n",
               EscapeForTerminal(s.message(), /*keep_newlines=*/true).c_str());
  switch (s.code()) {
    case StatusCode::kInvalidArgument:
    case StatusCode::kNotFound:
    case StatusCode::kAlreadyExists:
    case StatusCode::kFailedPrecondition:
      return kExitBadInput;
    case StatusCode::kCancelled:
      return kExitInterrupted;
    case StatusCode::kDbError:
      // A database call failed before any work: a database the user named that cannot be
      // used (missing, locked, not a database, server unreachable).
      return kExitBadInput;
    default:
      return kExitFailure;
  }
}

int FailDuringWork(const Status& s) {
  const int code = Fail(s);
  return s.code() == StatusCode::kDbError ? kExitFailure : code;
}

void Progress(const std::string& m) {
  std::fprintf(stderr, "%s\n", EscapeForTerminal(m, /*keep_newlines=*/true).c_str());
}

}  // namespace sb::cli
