// The /proc/net readers (driver/proc_net.h) on text laid out as the kernel prints it:
// /proc/net/dev by dev_seq_printf_stats (net/core/net-procfs.c: two title lines, then per
// interface its name, a colon and 16 counters) and /proc/net/snmp by snmp_seq_show_tcp_udp
// (net/ipv4/proc.c: a line of names and a line of values per protocol, IcmpMsg lines included
// when ICMP messages were counted), and the rates Iometer's Calculate_NI_Stats and
// Calculate_TCP_Stats compute from two readings.
#include "driver/proc_net.h"

#include <gtest/gtest.h>

namespace sb::driver {
namespace {

constexpr const char* kDev =
    "Inter-|   Receive                                                |  Transmit\n"
    " face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs "
    "drop fifo colls carrier compressed\n"
    "    lo:    4632      76    0    0    0     0          0         0     4632      76    0    "
    "0    0     0       0          0\n"
    "  eth0:30165814  176832    3    0    0     0          0         0  3700725   27219    2    "
    "0    0   288       0          0\n";

constexpr const char* kSnmp =
    "Ip: Forwarding DefaultTTL InReceives\n"
    "Ip: 2 64 116532560\n"
    "Icmp: InMsgs InErrors\n"
    "Icmp: 13 0\n"
    "IcmpMsg: InType3 OutType3\n"
    "IcmpMsg: 13 12\n"
    "Tcp: RtoAlgorithm RtoMin RtoMax MaxConn ActiveOpens PassiveOpens AttemptFails EstabResets "
    "CurrEstab InSegs OutSegs RetransSegs InErrs OutRsts InCsumErrors\n"
    "Tcp: 1 200 120000 -1 73306 57958 15312 3545 12 116529847 116518904 16197 0 18611 0\n"
    "Udp: InDatagrams NoPorts InErrors OutDatagrams\n"
    "Udp: 2777 12 0 2802\n";

TEST(ProcNetTest, SumsPacketsAndErrorsOfEveryInterfaceTheLoopbackIncluded) {
  ProcNet n;
  ParseProcNetDev(kDev, &n);
  EXPECT_TRUE(n.interfaces_ok);
  EXPECT_EQ(n.interfaces, 2);
  EXPECT_EQ(n.packets, 76u + 76u + 176832u + 27219u);
  EXPECT_EQ(n.errors, 3u + 2u);
}

TEST(ProcNetTest, ReadsACountRightAfterTheColon) {
  // Kernels before 2.6.x printed the receive bytes without a space after the colon.
  ProcNet n;
  ParseProcNetDev("t1\nt2\n  eth0:30165814  10 1 0 0 0 0 0  3700725   20 2 0 0 0 0 0\n", &n);
  EXPECT_EQ(n.packets, 30u);
  EXPECT_EQ(n.errors, 3u);
}

TEST(ProcNetTest, FindsRetransSegsByItsNameOnTheTcpLine) {
  ProcNet n;
  ParseProcNetSnmp(kSnmp, &n);
  EXPECT_TRUE(n.tcp_ok);
  EXPECT_EQ(n.retrans_segs, 16197u);
}

TEST(ProcNetTest, NothingReadIsAbsentNotZero) {
  ProcNet n;
  ParseProcNetDev("", &n);
  ParseProcNetSnmp("Ip: Forwarding\nIp: 2\n", &n);
  EXPECT_FALSE(n.interfaces_ok);
  EXPECT_FALSE(n.tcp_ok);
  const metrics::NetUsage u = NetBetween(n, n, 10);
  EXPECT_FALSE(u.interfaces);
  EXPECT_FALSE(u.tcp);
}

TEST(ProcNetTest, RatesPerSecondBetweenTwoReadings) {
  ProcNet a, b;
  a.interfaces_ok = b.interfaces_ok = a.tcp_ok = b.tcp_ok = true;
  a.packets = 1000;
  b.packets = 3500;
  a.errors = 4;
  b.errors = 9;
  a.retrans_segs = 100;
  b.retrans_segs = 112;
  const metrics::NetUsage u = NetBetween(a, b, 4);
  EXPECT_TRUE(u.interfaces);
  EXPECT_TRUE(u.tcp);
  EXPECT_DOUBLE_EQ(u.packets_per_sec, 625);
  EXPECT_DOUBLE_EQ(u.packet_errors_per_sec, 1.25);
  EXPECT_DOUBLE_EQ(u.retransmitted_segments_per_sec, 3);
}

TEST(ProcNetTest, ReadsThisMachinesFiles) {
  const ProcNet n = ReadProcNet();
  EXPECT_TRUE(n.interfaces_ok);  // every Linux host lists at least the loopback
  EXPECT_GE(n.interfaces, 1);
  EXPECT_TRUE(n.tcp_ok);
}

}  // namespace
}  // namespace sb::driver
