// The fixed value lists of spec §2.2 and Appendix A. The word lists themselves are generated data
// in words_data.cc.
#include "workload/dvdstore/words.h"

namespace sb::dvdstore {

const std::array<std::string_view, 16>& CategoryNames() {
  static constexpr std::array<std::string_view, 16> kNames = {
      "Action",  "Animation", "Children", "Classics", "Comedy", "Documentary", "Drama",  "Family",
      "Foreign", "Games",     "Horror",   "Music",    "New",    "Sci-Fi",      "Sports", "Travel"};
  return kNames;
}

const std::array<std::string_view, 51>& UsStates() {
  static constexpr std::array<std::string_view, 51> kStates = {
      "AK", "AL", "AR", "AZ", "CA", "CO", "CT", "DC", "DE", "FL", "GA", "HI", "IA",
      "ID", "IL", "IN", "KS", "KY", "LA", "MA", "MD", "ME", "MI", "MN", "MO", "MS",
      "MT", "NC", "ND", "NE", "NH", "NJ", "NM", "NV", "NY", "OH", "OK", "OR", "PA",
      "RI", "SC", "SD", "TN", "TX", "UT", "VA", "VT", "WA", "WI", "WV", "WY"};
  return kStates;
}

const std::array<std::string_view, 10>& RowCountries() {
  static constexpr std::array<std::string_view, 10> kCountries = {
      "Australia", "Canada", "Chile",  "China",        "France",
      "Germany",   "Japan",  "Russia", "South Africa", "UK"};
  return kCountries;
}

}  // namespace sb::dvdstore
