// Runs tests/ptd_simulator.py (a PTDaemon stand-in on loopback) as a child process for the
// duration of a test.
#ifndef STOREBENCH_TESTS_UNIT_POWER_PTD_SIMULATOR_PROCESS_H_
#define STOREBENCH_TESTS_UNIT_POWER_PTD_SIMULATOR_PROCESS_H_

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace sb::power::testing {

class PtdSimulator {
 public:
  // `args`: the simulator's options ("--watts", "250", ...).
  explicit PtdSimulator(std::vector<std::string> args) {
    int fds[2];
    if (pipe(fds) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      dup2(fds[1], STDOUT_FILENO);
      close(fds[0]);
      close(fds[1]);
      const std::string script = std::string(STOREBENCH_SOURCE_DIR) + "/tests/ptd_simulator.py";
      std::vector<char*> argv = {const_cast<char*>("python3"), const_cast<char*>(script.c_str())};
      for (std::string& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      execvp("python3", argv.data());
      _exit(127);
    }
    close(fds[1]);
    FILE* out = fdopen(fds[0], "r");
    char line[64] = {0};
    if (out != nullptr && std::fgets(line, sizeof line, out) != nullptr) {
      if (std::sscanf(line, "PORT %d", &port_) != 1) port_ = 0;
    }
    if (out != nullptr) std::fclose(out);
  }
  ~PtdSimulator() {
    if (pid_ > 0) {
      kill(pid_, SIGTERM);
      waitpid(pid_, nullptr, 0);
    }
  }
  PtdSimulator(const PtdSimulator&) = delete;
  PtdSimulator& operator=(const PtdSimulator&) = delete;

  int port() const { return port_; }

 private:
  pid_t pid_ = -1;
  int port_ = 0;
};

}  // namespace sb::power::testing

#endif  // STOREBENCH_TESTS_UNIT_POWER_PTD_SIMULATOR_PROCESS_H_
