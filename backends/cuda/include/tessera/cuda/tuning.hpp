#pragma once
// The tuning table behind cuda::automatic: for a (device, shape class, rank, radius,
// precision, grid size) it names the fastest of the candidate strategies, as measured by
// `tessera-bench --tuning-table` on that device. The table ships in the library
// (backends/cuda/tuning/table.csv, compiled in). A case the table lacks is tuned on first
// use: each candidate is timed on the caller's own views and the winner is remembered
// for the process (tuning_cache). Plain host code: parsed and looked up without a GPU.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/core/shape.hpp"
#include "tessera/cuda/candidates.hpp"

namespace tessera::cuda {

/// "cuda:naive", ... (the policies' names).
std::string candidate_name(candidate c);
/// The candidate a policy name denotes, if any.
std::optional<candidate> candidate_from_name(std::string_view name);

/// "star", "box" or "custom": the shape class a table row is keyed by.
template <class S>
struct shape_class_of {
  static constexpr const char* name = "custom";
};
template <int R, int Radius>
struct shape_class_of<star<R, Radius>> {
  static constexpr const char* name = "star";
};
template <int R, int Radius>
struct shape_class_of<box<R, Radius>> {
  static constexpr const char* name = "box";
};

struct tuning_key {
  std::string device;       // cudaDeviceProp::name, e.g. "NVIDIA H100 80GB HBM3"
  std::string shape_class;  // star, box, custom
  int rank = 0;
  int radius = 0;
  std::string precision;  // float, double
  int points_log2 = 0;    // log2 of the interior points, rounded (512^3: 27, 256^3: 24)
  /// Same case up to the grid size (the lookup takes the nearest measured size).
  bool same_case(const tuning_key& o) const {
    return device == o.device && shape_class == o.shape_class && rank == o.rank && radius == o.radius &&
           precision == o.precision;
  }
};

/// log2 of a point count, rounded to the nearest integer (0 for 0 or 1 point).
int points_log2(double points);

template <class S, class T>
tuning_key make_tuning_key(const std::string& device, double points) {
  return {device, shape_class_of<S>::name, S::rank, shape_traits<S>::radius,
          sizeof(T) == 4 ? "float" : "double", points_log2(points)};
}

struct tuning_entry {
  tuning_key key;
  candidate choice{};
};

/// Parses table text: a header line, then
///   device,shape_class,rank,radius,precision,points_log2,policy[,anything else]
/// ('#' starts a comment line). Throws invalid_argument_error naming the line.
std::vector<tuning_entry> parse_tuning_table(std::string_view text, const std::string& origin);

/// The table compiled into the library.
const std::vector<tuning_entry>& builtin_tuning_table();

/// The table's choice for key: among the rows of the same case, the one measured at the
/// grid size nearest to key's (in log2 of the points); none if the case has no row.
std::optional<candidate> lookup(const std::vector<tuning_entry>& table, const tuning_key& key);

/// A row of the fusion table (backends/cuda/tuning/fusion.csv): how many steps per pass
/// cuda::automatic's iterate fuses for a case (1: one sweep a step is faster).
struct fusion_entry {
  tuning_key key;
  int steps = 1;
};

/// Parses fusion-table text: a header line, then
///   device,shape_class,rank,radius,precision,points_log2,steps[,anything else]
/// ('#' starts a comment line; steps from 1 to 16). Throws invalid_argument_error naming
/// the line.
std::vector<fusion_entry> parse_fusion_table(std::string_view text, const std::string& origin);

/// The fusion table compiled into the library.
const std::vector<fusion_entry>& builtin_fusion_table();

/// The fusion table's steps for key: the row of the same case measured at the nearest
/// grid size; none if the case has no row.
std::optional<int> lookup(const std::vector<fusion_entry>& table, const tuning_key& key);

/// Choices made by the on-first-use tuner in this process, keyed by device, shape,
/// precision and extents: "cuda:shared-streaming" etc. For tests and reports.
std::size_t tuning_cache_size();
std::optional<candidate> tuning_cache_find(const std::string& key);
void tuning_cache_store(const std::string& key, candidate c);

/// False when the environment says TESSERA_TUNE=0 (then cases without a table entry
/// take the documented default rule instead of being timed).
bool tuning_enabled();

}  // namespace tessera::cuda
