#pragma once
// The tuning tables behind cuda::automatic, keyed by architecture as CUB's policies are:
// for a (device class, shape class, rank, radius, precision, grid size) the table names the
// fastest candidate strategy (table.csv) and how many time steps iterate fuses, and with
// which strategy (fusion.csv),
// as measured by tessera-bench on a device of that class. A device class is a compute
// capability, an SM count and a memory bandwidth; a device the tables never measured takes
// the rows of the nearest class (the same major architecture first, then the nearest compute
// capability, then the nearest bandwidth and SM count), so a new GPU of a measured
// architecture runs what its nearest sibling measured. A case no row has (a custom shape, a
// radius never benchmarked) takes the default rule, or with TESSERA_TUNE=1 is timed once
// on scratch views (never the caller's output) and remembered for the process
// (tuning_cache). Plain host code: parsed and looked up without a GPU.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/core/shape.hpp"
#include "tessera/cuda/detail/candidates.hpp"
#include "tessera/cuda/device_limits.hpp"

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

/// What a row was measured on: the architecture, its size and its memory.
struct device_class {
  int sm = 0;                // compute capability x 10: 90 for sm_90
  int multiprocessors = 0;   // SMs
  double bandwidth_tbs = 0;  // peak memory bandwidth (0: unknown)
  std::string to_string() const;  // "sm_90, 132 SMs, 3.35 TB/s"
};

/// The class of a device (its compute capability, SMs and memory bandwidth).
device_class class_of(const device_limits& lim);

/// How far a row measured on class `row` is from device class `device`: another major
/// architecture weighs most, then each step of compute capability, then the bandwidth's
/// and the SM count's ratios (in powers of two). 0 for the same class.
double class_distance(const device_class& device, const device_class& row);

struct tuning_key {
  device_class device;
  std::string shape_class;  // star, box, custom
  int rank = 0;
  int radius = 0;
  std::string precision;  // float, double
  int points_log2 = 0;    // log2 of the interior points, rounded (512^3: 27, 256^3: 24)
  /// Same case up to the device and the grid size (the lookup takes the nearest of each).
  bool same_case(const tuning_key& o) const {
    return shape_class == o.shape_class && rank == o.rank && radius == o.radius && precision == o.precision;
  }
};

/// log2 of a point count, rounded to the nearest integer (0 for 0 or 1 point).
int points_log2(double points);

template <class S, class T>
tuning_key make_tuning_key(const device_class& device, double points) {
  return {device, shape_class_of<S>::name, S::rank, shape_traits<S>::radius,
          sizeof(T) == 4 ? "float" : "double", points_log2(points)};
}

struct tuning_entry {
  tuning_key key;
  candidate choice{};
};

/// Parses table text: a header line, then
///   architecture,multiprocessors,bandwidth_tbs,shape_class,rank,radius,precision,points_log2,policy[,note]
/// with architecture sm_XY ('#' starts a comment line). Throws invalid_argument_error naming
/// the line.
std::vector<tuning_entry> parse_tuning_table(std::string_view text, const std::string& origin);

/// The table compiled into the library.
const std::vector<tuning_entry>& builtin_tuning_table();

/// The table's choice for key: among the rows of the same case, those of the device class
/// nearest to key's, and of those the one measured at the grid size nearest to key's (in
/// log2 of the points); none if the case has no row.
std::optional<candidate> lookup(const std::vector<tuning_entry>& table, const tuning_key& key);

/// A row of the fusion table (backends/cuda/tuning/fusion.csv): how many steps per pass
/// cuda::automatic's iterate fuses for a case (1: one sweep a step is faster), and, where
/// a face's ghosts must be refilled every step (periodic, Neumann), the choice there when
/// it differs: 0 a sweep and a fill a step, k >= 1 passes of k steps with the faces' rules
/// inside them and no fill (a sweep a step pays a fill a step that a pass does not).
/// The row names the strategy of its passes and, in its tile column, one of the strategy's
/// other tiles (automatic_fusers: each strategy's default tiles, then its
/// automatic_fusion_tiles; none: the first strategy's default tiles). A tile serves only
/// the shapes and types its policy says (automatic_fuses_tile); elsewhere its row is passed over.
/// Several rows may share a case and size: the first whose strategy can run the pass on
/// the caller's grid and device applies (fusion_rows), so a strategy that holds only some
/// grids (cuda::persistent: those that fit on chip) leads, and the next row stands in.
struct fusion_entry {
  tuning_key key;
  int steps = 1;
  std::optional<int> steps_refilled;  ///< none: as steps
  std::size_t fuser = 0;              ///< index into automatic_fusers
};

/// The name of automatic_fusers' i-th fuser: its policy's name, then its tile's where it is
/// not the default ("cuda:temporal-blocking", "cuda:temporal-blocking 64x32").
std::string fuser_name(std::size_t i);

/// Parses fusion-table text: a header line, then
///   architecture,multiprocessors,bandwidth_tbs,shape_class,rank,radius,precision,points_log2,steps[,steps_refilled[,policy[,tile[,note]]]]
/// ('#' starts a comment line; steps from 1 to 4096 (the strategy's compiled pass bounds
/// them further), steps_refilled empty or 0 to 4096, policy empty or the name of one of
/// automatic_fusers' strategies, tile empty (the default tiles) or the tile_name() of one of
/// that strategy's automatic_fusion_tiles). Throws invalid_argument_error naming the line.
std::vector<fusion_entry> parse_fusion_table(std::string_view text, const std::string& origin);

/// The fusion table compiled into the library.
const std::vector<fusion_entry>& builtin_fusion_table();

/// The fusion table's steps for key: the row of the same case of the nearest device class
/// and grid size; none if the case has no row.
std::optional<int> lookup(const std::vector<fusion_entry>& table, const tuning_key& key);

/// The rows of key's case at the nearest device class and grid size, in the table's order
/// (empty if the case has no row): the first whose strategy can run the pass applies.
std::vector<fusion_entry> fusion_rows(const std::vector<fusion_entry>& table, const tuning_key& key);

/// Choices made by the on-first-use tuner in this process, keyed by device, shape,
/// precision and extents: "cuda:shared-streaming" etc. For tests and reports.
std::size_t tuning_cache_size();
std::optional<candidate> tuning_cache_find(const std::string& key);
void tuning_cache_store(const std::string& key, candidate c);

/// True when the environment asks for the on-first-use tuner (TESSERA_TUNE=1): then a case
/// without a row is timed once; otherwise it takes the documented default rule.
bool tuning_enabled();

}  // namespace tessera::cuda
