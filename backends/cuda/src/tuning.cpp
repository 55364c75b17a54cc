// The tuning and fusion tables (compiled in from backends/cuda/tuning/table.csv and
// fusion.csv) and the cache of the on-first-use tuner.
#include "tessera/cuda/tuning.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>

#include "tessera/core/errors.hpp"
#include "tuning_table.inc"  // generated: tessera_tuning_table_csv, tessera_fusion_table_csv

namespace tessera::cuda {

std::string candidate_name(candidate c) {
  std::string name = "?";
  with_candidate(c, [&](auto policy) { name = decltype(policy)::name(); });
  return name;
}

std::string fuser_name(std::size_t i) {
  std::string name = "?";
  with_fuser(i, [&](auto policy) {
    using P = decltype(policy);
    const std::string tile = fusion_tile_name<P>();
    name = P::name() + (tile.empty() ? "" : " " + tile);
  });
  return name;
}

std::optional<candidate> candidate_from_name(std::string_view name) {
  for (candidate c : all_candidates)
    if (candidate_name(c) == name) return c;
  return std::nullopt;
}

namespace {
std::vector<std::string> split_csv(std::string_view line) {
  std::vector<std::string> f(1);
  bool quoted = false;
  for (char ch : line) {
    if (ch == '"') quoted = !quoted;
    else if (ch == ',' && !quoted) f.emplace_back();
    else if (ch != '\r') f.back() += ch;
  }
  return f;
}
}  // namespace

namespace {
/// Calls row(fields, where) for each data line of a table (a header line first; '#'
/// comments and blank lines skipped), after checking it has the key's columns and one more.
template <class Row>
void for_each_row(std::string_view text, const std::string& origin, const char* last_column, Row&& row) {
  std::size_t pos = 0, line_no = 0;
  bool header = true;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (line.empty() || line[0] == '#') continue;
    if (header) {  // column names
      header = false;
      continue;
    }
    const auto f = split_csv(line);
    const auto where = origin + ":" + std::to_string(line_no) + ": ";
    if (f.size() < 9)
      throw invalid_argument_error(where +
                                   "expected architecture,multiprocessors,bandwidth_tbs,shape_class,rank,radius,"
                                   "precision,points_log2," +
                                   last_column + "; got '" + std::string(line) + "'");
    row(f, where);
  }
}

/// A whole-field integer or number, or none.
std::optional<int> whole_int(const std::string& f) {
  try {
    std::size_t used = 0;
    const int v = std::stoi(f, &used);
    if (used == f.size()) return v;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}
std::optional<double> whole_number(const std::string& f) {
  try {
    std::size_t used = 0;
    const double v = std::stod(f, &used);
    if (used == f.size() && std::isfinite(v)) return v;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

tuning_key parse_key(const std::vector<std::string>& f, const std::string& where) {
  tuning_key k;
  const auto sm = f[0].rfind("sm_", 0) == 0 ? whole_int(f[0].substr(3)) : std::nullopt;
  const auto sms = whole_int(f[1]);
  const auto bw = whole_number(f[2]);
  if (!sm || *sm < 10 || *sm > 200 || !sms || *sms < 1 || !bw || *bw < 0)
    throw invalid_argument_error(where + "architecture, multiprocessors and bandwidth_tbs must be sm_XY, a count >= 1 "
                                         "and a number >= 0, got '" +
                                 f[0] + "', '" + f[1] + "', '" + f[2] + "'");
  k.device = {*sm, *sms, *bw};
  k.shape_class = f[3];
  const auto rank = whole_int(f[4]), radius = whole_int(f[5]), points = whole_int(f[7]);
  if (!rank || !radius || !points)
    throw invalid_argument_error(where + "rank, radius and points_log2 must be integers, got '" + f[4] + "', '" +
                                 f[5] + "', '" + f[7] + "'");
  k.rank = *rank;
  k.radius = *radius;
  k.points_log2 = *points;
  k.precision = f[6];
  return k;
}

/// The row of the same case as key of the nearest device class, and of those the one
/// measured at the nearest size.
template <class Entry>
const Entry* nearest(const std::vector<Entry>& table, const tuning_key& key) {
  const Entry* best = nullptr;
  double best_class = 0;
  int best_size = 0;
  for (const auto& e : table) {
    if (!e.key.same_case(key)) continue;
    const double d = class_distance(key.device, e.key.device);
    const int size = std::abs(e.key.points_log2 - key.points_log2);
    if (!best || d < best_class || (d == best_class && size < best_size)) best = &e, best_class = d, best_size = size;
  }
  return best;
}
}  // namespace

std::vector<tuning_entry> parse_tuning_table(std::string_view text, const std::string& origin) {
  std::vector<tuning_entry> rows;
  for_each_row(text, origin, "policy", [&](const std::vector<std::string>& f, const std::string& where) {
    tuning_entry e;
    e.key = parse_key(f, where);
    const auto c = candidate_from_name(f[8]);
    if (!c) {
      std::string names;
      for (candidate k : all_candidates) names += (names.empty() ? "" : ", ") + candidate_name(k);
      throw invalid_argument_error(where + "unknown policy '" + f[8] + "' (candidates: " + names + ")");
    }
    e.choice = *c;
    rows.push_back(e);
  });
  return rows;
}

std::vector<fusion_entry> parse_fusion_table(std::string_view text, const std::string& origin) {
  std::vector<fusion_entry> rows;
  for_each_row(text, origin, "steps", [&](const std::vector<std::string>& f, const std::string& where) {
    fusion_entry e;
    e.key = parse_key(f, where);
    constexpr int most = 4096;  // cuda::persistent's longest pass; each strategy's plan bounds its own
    const auto steps = whole_int(f[8]);
    if (!steps || *steps < 1 || *steps > most)
      throw invalid_argument_error(where + "steps must be an integer from 1 to 4096, got '" + f[8] + "'");
    e.steps = *steps;
    if (f.size() > 9 && !f[9].empty()) {
      const auto refilled = whole_int(f[9]);
      if (!refilled || *refilled < 0 || *refilled > most)
        throw invalid_argument_error(where + "steps_refilled must be empty or an integer from 0 to 4096 (the column "
                                             "after steps, before the policy), got '" +
                                     f[9] + "'");
      e.steps_refilled = *refilled;
    }
    // the policy and tile columns: empty for the first fuser's default tiles
    const std::string policy = f.size() > 10 && !f[10].empty() ? f[10] : std::string();
    const std::string tile = f.size() > 11 ? f[11] : std::string();
    if (!policy.empty() || !tile.empty()) {
      const std::string wanted = policy.empty() ? automatic_fusing_strategy::name() : policy;
      std::optional<std::size_t> found;
      bool known_policy = false;
      std::string names;
      for (std::size_t i = 0; i < automatic_fusers::size; ++i) {
        with_fuser(i, [&](auto p) {
          using P = decltype(p);
          const bool same_policy = P::name() == wanted;
          known_policy = known_policy || same_policy;
          if (same_policy && fusion_tile_name<P>() == tile) found = i;
        });
        names += (i ? ", " : "") + fuser_name(i);
      }
      if (!found)
        throw invalid_argument_error(
            where + (known_policy ? "unknown tile '" + tile + "' for " + wanted : "unknown policy '" + policy + "'") +
            " for fused passes (the policy column after steps_refilled: empty for " + fuser_name(0) +
            "; the tile column after it: empty for the policy's default tiles; the fusers: " + names + ")");
      e.fuser = *found;
    }
    rows.push_back(e);
  });
  return rows;
}

const std::vector<tuning_entry>& builtin_tuning_table() {
  static const std::vector<tuning_entry> table =
      parse_tuning_table(tessera_tuning_table_csv, "backends/cuda/tuning/table.csv");
  return table;
}

const std::vector<fusion_entry>& builtin_fusion_table() {
  static const std::vector<fusion_entry> table =
      parse_fusion_table(tessera_fusion_table_csv, "backends/cuda/tuning/fusion.csv");
  return table;
}

std::optional<candidate> lookup(const std::vector<tuning_entry>& table, const tuning_key& key) {
  if (const auto* e = nearest(table, key)) return e->choice;
  return std::nullopt;
}

std::optional<int> lookup(const std::vector<fusion_entry>& table, const tuning_key& key) {
  if (const auto* e = nearest(table, key)) return e->steps;
  return std::nullopt;
}

std::vector<fusion_entry> fusion_rows(const std::vector<fusion_entry>& table, const tuning_key& key) {
  std::vector<fusion_entry> rows;
  const auto* n = nearest(table, key);
  if (!n) return rows;
  const auto same_class = [](const device_class& a, const device_class& b) {
    return a.sm == b.sm && a.multiprocessors == b.multiprocessors && a.bandwidth_tbs == b.bandwidth_tbs;
  };
  for (const auto& e : table)  // the nearest row's device class and size
    if (e.key.same_case(key) && same_class(e.key.device, n->key.device) && e.key.points_log2 == n->key.points_log2)
      rows.push_back(e);
  return rows;
}

std::string device_class::to_string() const {
  char bw[32];
  std::snprintf(bw, sizeof bw, "%.2f", bandwidth_tbs);
  return "sm_" + std::to_string(sm) + ", " + std::to_string(multiprocessors) + " SMs, " + bw + " TB/s";
}

device_class class_of(const device_limits& lim) {
  return {10 * lim.compute_major + lim.compute_minor, lim.multiprocessors, lim.memory_bandwidth_tbs};
}

double class_distance(const device_class& device, const device_class& row) {
  const auto ratio = [](double a, double b) { return a > 0 && b > 0 ? std::fabs(std::log2(a / b)) : 0.0; };
  return 1000.0 * (device.sm / 10 != row.sm / 10) + 10.0 * std::abs(device.sm - row.sm) +
         ratio(device.bandwidth_tbs, row.bandwidth_tbs) + ratio(device.multiprocessors, row.multiprocessors);
}

int points_log2(double points) { return points <= 1 ? 0 : static_cast<int>(std::lround(std::log2(points))); }

namespace {
std::mutex cache_mutex;
std::map<std::string, candidate>& cache() {
  static std::map<std::string, candidate> c;
  return c;
}
}  // namespace

std::size_t tuning_cache_size() {
  std::lock_guard lock(cache_mutex);
  return cache().size();
}
std::optional<candidate> tuning_cache_find(const std::string& key) {
  std::lock_guard lock(cache_mutex);
  const auto it = cache().find(key);
  if (it == cache().end()) return std::nullopt;
  return it->second;
}
void tuning_cache_store(const std::string& key, candidate c) {
  std::lock_guard lock(cache_mutex);
  cache()[key] = c;
}

bool tuning_enabled() {
  const char* v = std::getenv("TESSERA_TUNE");
  return v && std::string_view(v) == "1";
}

}  // namespace tessera::cuda
