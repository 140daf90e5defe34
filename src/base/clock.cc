#include "base/clock.h"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <thread>

namespace sb {

void SteadyClock::SleepUntil(int64_t deadline_nanos) {
  const int64_t now = NowNanos();
  if (deadline_nanos <= now) return;
  std::this_thread::sleep_for(std::chrono::nanoseconds(deadline_nanos - now));
}

void FakeClock::SleepUntil(int64_t deadline_nanos) {
  int64_t cur = now_.load(std::memory_order_acquire);
  while (cur < deadline_nanos &&
         !now_.compare_exchange_weak(cur, deadline_nanos, std::memory_order_acq_rel)) {
  }
}

namespace {
std::tm LocalTm(std::time_t t) {
  std::tm tm{};
  localtime_r(&t, &tm);
  return tm;
}
}  // namespace

std::string WallClockIsoUtc() { return WallClockIsoUtcAgo(0); }

std::string WallClockIsoUtcAgo(int64_t nanos) {
  const auto now = std::chrono::system_clock::now() -
                   std::chrono::duration_cast<std::chrono::system_clock::duration>(
                       std::chrono::nanoseconds(nanos));
  const std::time_t t = std::chrono::system_clock::to_time_t(now);
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[40];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  char out[48];
  std::snprintf(out, sizeof out, "%s.%03dZ", buf, static_cast<int>(ms));
  return out;
}

std::string WallClockLocal(bool compact) {
  const std::tm tm = LocalTm(std::time(nullptr));
  char buf[40];
  std::strftime(buf, sizeof buf, compact ? "%Y%m%d-%H%M%S" : "%Y-%m-%d %H:%M:%S", &tm);
  return buf;
}

std::string WallClockIometer() {
  const auto now = std::chrono::system_clock::now();
  const std::tm tm = LocalTm(std::chrono::system_clock::to_time_t(now));
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  char buf[48];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02d %02d:%02d:%02d:%03d", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(ms));
  return buf;
}

std::string WallClockDotNetLocal() {
  const std::tm tm = LocalTm(std::time(nullptr));
  int hour12 = tm.tm_hour % 12;
  if (hour12 == 0) hour12 = 12;
  char buf[48];
  std::snprintf(buf, sizeof buf, "%02d/%02d/%04d %d:%02d:%02d %s", tm.tm_mon + 1, tm.tm_mday,
                tm.tm_year + 1900, hour12, tm.tm_min, tm.tm_sec, tm.tm_hour < 12 ? "AM" : "PM");
  return buf;
}

}  // namespace sb
