// SPDX-License-Identifier: LGPL-2.1-or-later
// Running a peer's checkasm benchmark and reading its listing (bench_peer_run.h).
#include "bench_peer_run.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

namespace v3dbench {
namespace {

bool read_native_timer(uint64_t *t) {
#if defined(__x86_64__) || defined(__i386__)
  *t = __rdtsc();
  return true;
#elif defined(__aarch64__)
  uint64_t v;
  asm volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(v));
  *t = v;
  return true;
#else
  (void)t;
  return false;
#endif
}

// Parses one line of checkasm's --bench listing, "NAME_CPU:   123.4 ( 1.23x)", NAME holding
// underscores and CPU the version's suffix.
bool parse_line(const char *line, std::string *name, std::string *cpu, double *units) {
  const char *colon = strchr(line, ':');
  if (!colon || colon == line) return false;
  char *end = nullptr;
  const double v = strtod(colon + 1, &end);
  if (end == colon + 1 || !strstr(end, "x)")) return false;
  const std::string full(line, static_cast<size_t>(colon - line));
  const size_t us = full.rfind('_');
  if (us == std::string::npos || full.find(' ') != std::string::npos) return false;
  *name = full.substr(0, us);
  *cpu = full.substr(us + 1);
  *units = v;
  return true;
}

}  // namespace

std::map<std::string, PeerFigure> run_checkasm(const std::string &path, const char *test,
                                               const char *pattern, std::string *log) {
  std::map<std::string, PeerFigure> best;
  // stderr goes to a file of its own so that the listing on stdout stays parseable.
  char errpath[] = "/tmp/v3d-bench-checkasm-XXXXXX";
  const int fd = mkstemp(errpath);
  if (fd < 0) return best;
  const std::string cmd = "'" + path + "' --test=" + test + " --bench=" + pattern + " 2>" + errpath;
  FILE *p = popen(cmd.c_str(), "r");
  if (p) {
    char line[512];
    while (fgets(line, sizeof line, p)) {
      std::string name, cpu;
      double units;
      if (!parse_line(line, &name, &cpu, &units) || cpu == "c" || units <= 0) continue;
      auto it = best.find(name);
      if (it == best.end() || units < it->second.units) best[name] = PeerFigure{units, cpu};
    }
    pclose(p);
  }
  if (log) {
    FILE *e = fdopen(fd, "r");
    char line[512];
    while (e && fgets(line, sizeof line, e)) *log += line;
    if (e) fclose(e);
  } else {
    close(fd);
  }
  unlink(errpath);
  return best;
}

double native_timer_per_ns() {
  using Clock = std::chrono::steady_clock;
  std::vector<double> r;
  for (int i = 0; i < 3; i++) {
    uint64_t a, b;
    const auto t0 = Clock::now();
    if (!read_native_timer(&a)) return 0;
    std::this_thread::sleep_for(std::chrono::milliseconds(70));
    read_native_timer(&b);
    const double ns = std::chrono::duration<double, std::nano>(Clock::now() - t0).count();
    r.push_back(static_cast<double>(b - a) / ns);
  }
  std::sort(r.begin(), r.end());
  return r[1];
}

}  // namespace v3dbench
