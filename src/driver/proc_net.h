// System-wide network counters from /proc/net/dev and /proc/net/snmp, read by the driver at a
// storage test's measured window's start and end, as Iometer 1.1.0's Linux dynamo reads them
// for its results file's Packets/Second, Packet Errors and Segments Retransmitted/Second
// (IOPerformanceLinux.cpp: Performance::Get_NI_Counters, Get_TCP_Counters, Calculate_NI_Stats,
// Calculate_TCP_Stats).
#ifndef STOREBENCH_DRIVER_PROC_NET_H_
#define STOREBENCH_DRIVER_PROC_NET_H_

#include <cstdint>
#include <string>

#include "metrics/storage_result.h"

namespace sb::driver {

struct ProcNet {
  // /proc/net/dev, summed over every interface listed (the loopback included, as Iometer sums
  // every interface of the file): packets received + sent, receive + transmit errors.
  bool interfaces_ok = false;
  int interfaces = 0;
  uint64_t packets = 0, errors = 0;
  // /proc/net/snmp: the Tcp line's RetransSegs.
  bool tcp_ok = false;
  uint64_t retrans_segs = 0;
};

// Parses /proc/net/dev text: two title lines, then "name: 16 counters" per interface (receive:
// bytes packets errs drop fifo frame compressed multicast; transmit: bytes packets errs drop
// fifo colls carrier compressed), as net/core/net-procfs.c prints them.
void ParseProcNetDev(const std::string& text, ProcNet* out);
// Parses /proc/net/snmp text: per protocol a line of names and a line of values, both starting
// with "Tcp:" etc.; RetransSegs is found by its name.
void ParseProcNetSnmp(const std::string& text, ProcNet* out);
ProcNet ReadProcNet();
// Per-second rates between two readings `seconds` apart (Iometer: (last - first) / time, every
// figure a rate, Packet Errors too); a part neither reading has stays absent.
metrics::NetUsage NetBetween(const ProcNet& a, const ProcNet& b, double seconds);

}  // namespace sb::driver

#endif  // STOREBENCH_DRIVER_PROC_NET_H_
