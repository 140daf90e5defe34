// The file a run's result document goes to.
#ifndef STOREBENCH_SESSION_RESULT_PATH_H_
#define STOREBENCH_SESSION_RESULT_PATH_H_

#include <string>

namespace sb::session {

// `json_option` when given (report::WriteResultFile then replaces that file, as asked). When it
// is empty, a new file results/<YYYYmmdd-HHMMSS><ext> claimed with CreateUniqueFile: the name
// has one-second resolution, so runs ending in the same second get <stamp>-2<ext>, -3, ...
// instead of overwriting each other (README.md, "Output"). When no file can be claimed (the
// directory became unwritable during the run), the plain name is returned and writing the result
// reports the reason. `*claimed` (when given) tells whether this call created the empty file, so
// that a caller whose result then cannot be written removes it (no 0-byte result left behind).
std::string ResultPath(const std::string& json_option, const std::string& ext,
                       bool* claimed = nullptr);

}  // namespace sb::session

#endif  // STOREBENCH_SESSION_RESULT_PATH_H_
