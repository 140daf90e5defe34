// The word lists shared by the data generator and the order loop (spec §9.8): searches hit only
// when both use the same lists. storebench's own lists, of the same sizes as DVD Store's.
#ifndef STOREBENCH_WORKLOAD_DVDSTORE_WORDS_H_
#define STOREBENCH_WORKLOAD_DVDSTORE_WORDS_H_

#include <array>
#include <string_view>

namespace sb::dvdstore {

constexpr int kNumTitleWords = 1000;   // upper case, alphabetical
constexpr int kNumActorFirst = 200;    // upper case
constexpr int kNumActorLast = 200;     // upper case
constexpr int kNumReviewWords = 4968;  // mixed case, no punctuation, at most 14 characters
// The generator draws review words from the first 4951, the driver from the first 4900 (§4.6, §5.8).
constexpr int kReviewWordsGenerator = 4951;
constexpr int kReviewWordsDriver = 4900;

const std::array<std::string_view, kNumTitleWords>& TitleWords();
const std::array<std::string_view, kNumActorFirst>& ActorFirstNames();
const std::array<std::string_view, kNumActorLast>& ActorLastNames();
const std::array<std::string_view, kNumReviewWords>& ReviewWords();

// The 16 categories, ids 1..16 (index 0 = id 1).
const std::array<std::string_view, 16>& CategoryNames();
// 51 US state codes (alphabetical, DC included) and the 10 rest-of-world countries (Appendix A).
const std::array<std::string_view, 51>& UsStates();
const std::array<std::string_view, 10>& RowCountries();

}  // namespace sb::dvdstore

#endif  // STOREBENCH_WORKLOAD_DVDSTORE_WORDS_H_
