#pragma once
// The progress bar of `tessera run`: drawn on stderr, and only when stderr is a terminal
// (a log file or a pipe gets the summary alone).
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <string>

namespace tessera::app {

class progress_bar {
 public:
  /// total: the units of work (steps, or iterations for an open-ended solve); enabled
  /// only for a terminal and at least min_total units.
  explicit progress_bar(long long total, long long min_total = 20)
      : total_(std::max(1LL, total)), on_(isatty(fileno(stderr)) && total >= min_total) {}
  ~progress_bar() { clear(); }
  bool on() const { return on_; }
  /// How often to report: about 50 updates over the run.
  int every() const { return static_cast<int>(std::max(1LL, total_ / 50)); }
  void show(long long done, const std::string& extra = {}) const {
    if (!on_) return;
    const int w = 40, filled = static_cast<int>(std::min(1.0, double(done) / total_) * w);
    std::fprintf(stderr, "\r[%s%s] %lld/%lld %s", std::string(filled, '#').c_str(),
                 std::string(w - filled, ' ').c_str(), done, total_, extra.c_str());
  }
  void clear() const {
    if (on_) std::fprintf(stderr, "\r%80s\r", "");
  }

 private:
  long long total_;
  bool on_;
};

}  // namespace tessera::app
