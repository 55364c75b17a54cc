// The tuning and fusion tables (compiled in from backends/cuda/tuning/table.csv and
// fusion.csv) and the cache of the on-first-use tuner.
#include "tessera/cuda/tuning.hpp"

#include <cmath>
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
    if (f.size() < 7)
      throw invalid_argument_error(where + "expected device,shape_class,rank,radius,precision,points_log2," +
                                   last_column + "; got '" + std::string(line) + "'");
    row(f, where);
  }
}

tuning_key parse_key(const std::vector<std::string>& f, const std::string& where) {
  tuning_key k;
  k.device = f[0];
  k.shape_class = f[1];
  try {
    k.rank = std::stoi(f[2]);
    k.radius = std::stoi(f[3]);
    k.points_log2 = std::stoi(f[5]);
  } catch (const std::exception&) {
    throw invalid_argument_error(where + "rank, radius and points_log2 must be integers, got '" + f[2] + "', '" +
                                 f[3] + "', '" + f[5] + "'");
  }
  k.precision = f[4];
  return k;
}

/// The row of the same case as key measured at the nearest size.
template <class Entry>
const Entry* nearest(const std::vector<Entry>& table, const tuning_key& key) {
  const Entry* best = nullptr;
  for (const auto& e : table)
    if (e.key.same_case(key) &&
        (!best || std::abs(e.key.points_log2 - key.points_log2) < std::abs(best->key.points_log2 - key.points_log2)))
      best = &e;
  return best;
}
}  // namespace

std::vector<tuning_entry> parse_tuning_table(std::string_view text, const std::string& origin) {
  std::vector<tuning_entry> rows;
  for_each_row(text, origin, "policy", [&](const std::vector<std::string>& f, const std::string& where) {
    tuning_entry e;
    e.key = parse_key(f, where);
    const auto c = candidate_from_name(f[6]);
    if (!c) {
      std::string names;
      for (candidate k : all_candidates) names += (names.empty() ? "" : ", ") + candidate_name(k);
      throw invalid_argument_error(where + "unknown policy '" + f[6] + "' (candidates: " + names + ")");
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
    std::size_t used = 0;
    int steps = 0;
    try {
      steps = std::stoi(f[6], &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != f[6].size() || steps < 1 || steps > 16)
      throw invalid_argument_error(where + "steps must be an integer from 1 to 16, got '" + f[6] + "'");
    e.steps = steps;
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
  return !(v && std::string_view(v) == "0");
}

}  // namespace tessera::cuda
