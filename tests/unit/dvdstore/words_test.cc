#include "workload/dvdstore/words.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

namespace sb::dvdstore {
namespace {

bool AllUpper(std::string_view w) {
  return !w.empty() && std::all_of(w.begin(), w.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
}

bool AllLetters(std::string_view w) {
  return !w.empty() && std::all_of(w.begin(), w.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
  });
}

template <typename List>
size_t Distinct(const List& list) {
  return std::set<std::string_view>(list.begin(), list.end()).size();
}

TEST(WordsTest, TitleWordsAreDistinctUpperCaseAndAlphabetical) {
  const auto& words = TitleWords();
  ASSERT_EQ(words.size(), 1000u);
  EXPECT_EQ(Distinct(words), words.size());
  for (size_t i = 0; i < words.size(); ++i) {
    EXPECT_TRUE(AllUpper(words[i])) << i << " '" << words[i] << "'";
    // Full-text engines skip short words (MySQL MyISAM below 4 letters).
    EXPECT_GE(words[i].size(), 4u) << words[i];
    // Two words and a space fit TITLE VARCHAR(50).
    EXPECT_LE(words[i].size(), 24u) << words[i];
    if (i > 0) {
      EXPECT_LT(words[i - 1], words[i]) << "not alphabetical at " << i;
    }
  }
}

TEST(WordsTest, ActorNamesAreDistinctUpperCase) {
  const auto& first = ActorFirstNames();
  const auto& last = ActorLastNames();
  ASSERT_EQ(first.size(), 200u);
  ASSERT_EQ(last.size(), 200u);
  EXPECT_EQ(Distinct(first), first.size());
  EXPECT_EQ(Distinct(last), last.size());
  size_t longest_first = 0, longest_last = 0;
  for (std::string_view n : first) {
    EXPECT_TRUE(AllUpper(n)) << n;
    EXPECT_GE(n.size(), 4u) << n;
    longest_first = std::max(longest_first, n.size());
  }
  for (std::string_view n : last) {
    EXPECT_TRUE(AllUpper(n)) << n;
    EXPECT_GE(n.size(), 4u) << n;
    longest_last = std::max(longest_last, n.size());
  }
  EXPECT_LE(longest_first + 1 + longest_last, 50u);  // ACTOR VARCHAR(50)
  // A name used as both first and last name would blur actor searches.
  for (std::string_view n : first) {
    EXPECT_EQ(std::find(last.begin(), last.end(), n), last.end()) << n;
  }
}

TEST(WordsTest, ReviewWordsAreDistinctLettersOnlyMixedCase) {
  const auto& words = ReviewWords();
  ASSERT_EQ(words.size(), 4968u);
  EXPECT_EQ(Distinct(words), words.size());
  size_t total = 0, capitalised = 0, longest = 0;
  for (std::string_view w : words) {
    EXPECT_TRUE(AllLetters(w)) << "'" << w << "'";
    EXPECT_LE(w.size(), 14u) << w;
    total += w.size();
    longest = std::max(longest, w.size());
    if (w[0] >= 'A' && w[0] <= 'Z') ++capitalised;
  }
  const double mean = static_cast<double>(total) / static_cast<double>(words.size());
  EXPECT_GE(mean, 5.0);
  EXPECT_LE(mean, 6.0);
  EXPECT_EQ(longest, 14u);
  EXPECT_GT(capitalised, 0u);
  EXPECT_LT(capitalised, words.size() / 10);
  EXPECT_LE(kReviewWordsDriver, kReviewWordsGenerator);
  EXPECT_LE(kReviewWordsGenerator, kNumReviewWords);
}

TEST(WordsTest, CategoryNames) {
  const std::array<std::string_view, 16> expected = {
      "Action",  "Animation", "Children", "Classics", "Comedy", "Documentary", "Drama",  "Family",
      "Foreign", "Games",     "Horror",   "Music",    "New",    "Sci-Fi",      "Sports", "Travel"};
  EXPECT_EQ(CategoryNames(), expected);
}

TEST(WordsTest, UsStatesAreTheFiftyOneCodesInOrder) {
  const auto& states = UsStates();
  ASSERT_EQ(states.size(), 51u);
  EXPECT_EQ(states.front(), "AK");
  EXPECT_EQ(states.back(), "WY");
  EXPECT_NE(std::find(states.begin(), states.end(), "DC"), states.end());
  for (size_t i = 0; i < states.size(); ++i) {
    EXPECT_TRUE(AllUpper(states[i]) && states[i].size() == 2) << states[i];
    if (i > 0) {
      EXPECT_LT(states[i - 1], states[i]);
    }
  }
}

TEST(WordsTest, RowCountries) {
  const std::array<std::string_view, 10> expected = {"Australia",    "Canada",  "Chile", "China",
                                                     "France",       "Germany", "Japan", "Russia",
                                                     "South Africa", "UK"};
  EXPECT_EQ(RowCountries(), expected);
}

TEST(WordsTest, NoListHoldsACsvSeparator) {
  auto check = [](const auto& list) {
    for (std::string_view w : list) {
      EXPECT_EQ(w.find_first_of(",\"\n\r\t\\"), std::string_view::npos) << w;
    }
  };
  check(TitleWords());
  check(ActorFirstNames());
  check(ActorLastNames());
  check(ReviewWords());
  check(CategoryNames());
  check(UsStates());
  check(RowCountries());
}

}  // namespace
}  // namespace sb::dvdstore
