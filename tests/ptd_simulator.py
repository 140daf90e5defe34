#!/usr/bin/env python3
"""A stand-in for SPEC's PTDaemon on loopback, speaking its TCP text protocol (lines ending in
CRLF), for tests of storebench's ptd:// power source. No power analyzer is involved.

Replies:
  Hello            -> "Hello, PTDaemon here!"  (--not-ptd: "SSH-2.0-OpenSSH")
  Identify         -> "PTDaemon version 1.11.1 simulator, device: WT310 (simulated)"
  Go,<ms>,<n>,<mark> -> "Starting untimed measurement, maximum 500000 samples at <ms>ms with <n> rampup samples"
  Watts            -> "Watts,<w>" with w = --watts (every --error-every'th: "Error: range overflow")
  Uncertainty      -> "Uncertainty,0.0123"
  RL               -> "Last 2 samples" and two log lines
  Stop             -> "Stopping untimed measurement"
  anything else    -> "Error: unknown command"
With --hang-after N the simulator stops answering after N Watts commands (a meter that hangs):
it keeps reading commands and never replies again, on any connection.

Prints "PORT <n>" on stdout once listening. Every command received is appended to --log.
"""
import argparse
import socket
import sys
import threading


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--watts", type=float, default=100.0)
    ap.add_argument("--error-every", type=int, default=0)
    ap.add_argument("--hang-after", type=int, default=0)
    ap.add_argument("--not-ptd", action="store_true")
    ap.add_argument("--log", default="")
    args = ap.parse_args()

    state = {"watts_count": 0, "hung": False}
    lock = threading.Lock()

    def log(line):
        if args.log:
            with lock, open(args.log, "a") as f:
                f.write(line + "\n")

    def reply_for(cmd):
        if cmd == "Hello":
            return "SSH-2.0-OpenSSH" if args.not_ptd else "Hello, PTDaemon here!"
        if cmd == "Identify":
            return "PTDaemon version 1.11.1 simulator, device: WT310 (simulated)"
        if cmd.startswith("Go,"):
            parts = cmd.split(",")
            return ("Starting untimed measurement, maximum 500000 samples at %sms with %s "
                    "rampup samples" % (parts[1], parts[2] if len(parts) > 2 else "0"))
        if cmd == "Watts":
            with lock:
                state["watts_count"] += 1
                n = state["watts_count"]
                if args.hang_after and n > args.hang_after:
                    state["hung"] = True
            if state["hung"]:
                return None
            if args.error_every and n % args.error_every == 0:
                return "Error: range overflow"
            return "Watts,%.3f" % args.watts
        if cmd == "Uncertainty":
            return "Uncertainty,0.0123"
        if cmd == "RL":
            return ("Last 2 samples\r\n"
                    "Time,12-01-2026 10:00:00.000,Watts,%.3f,Volts,230.0,Amps,0.5,PF,0.9,Mark,x\r\n"
                    "Time,12-01-2026 10:00:01.000,Watts,%.3f,Volts,230.0,Amps,0.5,PF,0.9,Mark,x"
                    % (args.watts, args.watts))
        if cmd == "Stop":
            return "Stopping untimed measurement"
        return "Error: unknown command"

    def serve(conn):
        buf = b""
        with conn:
            while True:
                try:
                    data = conn.recv(4096)
                except OSError:
                    return
                if not data:
                    return
                buf += data
                while b"\n" in buf:
                    line, buf = buf.split(b"\n", 1)
                    cmd = line.decode(errors="replace").rstrip("\r")
                    log(cmd)
                    if state["hung"]:
                        continue
                    r = reply_for(cmd)
                    if r is None:
                        continue
                    try:
                        conn.sendall((r + "\r\n").encode())
                    except OSError:
                        return

    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", 0))
    srv.listen(16)
    print("PORT %d" % srv.getsockname()[1], flush=True)
    while True:
        conn, _ = srv.accept()
        threading.Thread(target=serve, args=(conn,), daemon=True).start()


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        sys.exit(0)
