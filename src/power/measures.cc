#include "storebench/power_source.h"

namespace sb::power {

const char* MeasuresName(Measures m) {
  switch (m) {
    case Measures::kWall:
      return "wall";
    case Measures::kPackage:
      return "package";
    case Measures::kDram:
      return "dram";
    case Measures::kPackageAndDram:
      return "package+dram";
    case Measures::kUnknown:
      break;
  }
  return "unknown";
}

}  // namespace sb::power
