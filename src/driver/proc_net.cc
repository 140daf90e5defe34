#include "driver/proc_net.h"

#include <fstream>
#include <sstream>
#include <vector>

namespace sb::driver {
namespace {

std::string ReadFile(const char* path) {
  std::ifstream in(path);
  if (!in) return "";
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A counter's growth; a counter that went back (an interface removed and added again) counts 0.
double Grown(uint64_t a, uint64_t b) { return b >= a ? static_cast<double>(b - a) : 0.0; }

}  // namespace

void ParseProcNetDev(const std::string& text, ProcNet* out) {
  std::istringstream in(text);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    if (++n <= 2) continue;  // the two title lines
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    // Old kernels print a long receive byte count right after the colon ("eth0:30165814").
    std::istringstream ls(line.substr(colon + 1));
    uint64_t v[16];
    int got = 0;
    while (got < 16 && ls >> v[got]) ++got;
    if (got < 11) continue;
    out->packets += v[1] + v[9];
    out->errors += v[2] + v[10];
    ++out->interfaces;
    out->interfaces_ok = true;
  }
}

void ParseProcNetSnmp(const std::string& text, ProcNet* out) {
  std::istringstream in(text);
  std::string line;
  std::vector<std::string> names;
  while (std::getline(in, line)) {
    if (line.rfind("Tcp:", 0) != 0) continue;
    std::istringstream ls(line.substr(4));
    std::vector<std::string> fields;
    for (std::string f; ls >> f;) fields.push_back(f);
    if (names.empty()) {
      names = fields;  // the first Tcp: line names the columns, the second holds the values
      continue;
    }
    for (size_t i = 0; i < names.size() && i < fields.size(); ++i) {
      if (names[i] != "RetransSegs") continue;
      try {
        out->retrans_segs = std::stoull(fields[i]);
        out->tcp_ok = true;
      } catch (const std::exception&) {
      }
    }
    return;
  }
}

ProcNet ReadProcNet() {
  ProcNet n;
  ParseProcNetDev(ReadFile("/proc/net/dev"), &n);
  ParseProcNetSnmp(ReadFile("/proc/net/snmp"), &n);
  return n;
}

metrics::NetUsage NetBetween(const ProcNet& a, const ProcNet& b, double seconds) {
  metrics::NetUsage u;
  if (seconds <= 0) return u;
  if (a.interfaces_ok && b.interfaces_ok) {
    u.interfaces = true;
    u.packets_per_sec = Grown(a.packets, b.packets) / seconds;
    u.packet_errors_per_sec = Grown(a.errors, b.errors) / seconds;
  }
  if (a.tcp_ok && b.tcp_ok) {
    u.tcp = true;
    u.retransmitted_segments_per_sec = Grown(a.retrans_segs, b.retrans_segs) / seconds;
  }
  return u;
}

}  // namespace sb::driver
