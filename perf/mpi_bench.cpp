// tessera-mpi-bench: scaling of distributed device views (not a test: ctest only checks
// that it refuses bad arguments). Under mpirun, one GPU a rank; fp32 3D 7-point heat
// steps, Dirichlet faces, cuda::automatic on every block; for each transport asked for:
//   overlapped   mpi::iterate, the inner box swept while the halos travel (grids that
//                leave the last axis whole: slabs and block grids such as 2x2x1)
//   serial       mpi::iterate with overlap::off: exchange, then sweep
//   sweeps only  the same sweeps of each rank's block with no exchange (the floor)
//   boxes only   the overlapped step's sweeps (inner box, then the shell's boxes on their
//                streams) with no exchange: what splitting the block costs (0 in the CSV
//                where nothing overlaps)
//   halos only   device_exchange::fill alone (messages and the Dirichlet face fills, which
//                iterate pays once, not each step)
//   fused        temporal blocking across ranks (mpi/fused_passes.hpp): views with halos
//                --fuse-depth cells deep (default 4; 0: not measured), mpi::iterate with
//                cuda::automatic, which fuses as many steps a pass (and an exchange) as its
//                fusion table says for the grown block, at most the depth
//   fused passes only   the same passes with no exchange (the fused path's floor)
// Each: the median of --reps timed runs of --steps steps after one untimed run, the
// slowest rank's time; GCell-updates/s over the global grid. Rank 0 prints a table and
// CSV lines ("csv,...") for perf/RESULTS.md.
//   mpirun -np 4 tessera-mpi-bench --local 512x512x512     weak scaling (the block per rank;
//                                                          the global grid: block x process grid)
//   mpirun -np 4 tessera-mpi-bench --size 768x768x768      strong scaling (the global grid)
#include <mpi.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include <tessera/mpi/mpi.hpp>
#include <tessera/tessera.hpp>

#include "median.hpp"
#include "user_case.hpp"

namespace ts = tessera;
namespace tmpi = tessera::mpi;

namespace {

constexpr const char* usage =
    "usage: mpirun -np N tessera-mpi-bench [--size AxBxC | --local AxBxC] [--steps S (100)] [--reps R (5)]\n"
    "                                      [--transport nccl|host-staged|cuda-aware-mpi|all (all)]\n"
    "                                      [--grid overlap|slab|mpi|AxBxC (overlap)] [--fuse-depth D (4)]\n"
    "  --size: the global grid (strong scaling); --local: each rank's block, the global grid\n"
    "  the block times the process grid (weak scaling). Default --local 512x512x512.\n"
    "  --grid overlap: the fewest halo cells among the grids whose steps overlap (the last axis\n"
    "  whole: overlapping_process_grid, e.g. 2x2x1 for 4 ranks); slab: every rank along axis 0;\n"
    "  mpi: the domain's own choice (e.g. 2x2x2 for 8 ranks, no overlap); AxBxC: that grid.\n"
    "  --fuse-depth: halo depth of the fused columns (temporal blocking across ranks, 0 to 8;\n"
    "  0 leaves them out).\n";

double slowest(double mine, MPI_Comm comm) {
  double worst = 0;
  MPI_Allreduce(&mine, &worst, 1, MPI_DOUBLE, MPI_MAX, comm);
  return worst;
}

template <class F>
double median_seconds(int reps, MPI_Comm comm, F&& run) {
  run();  // untimed: first-use tuning, NCCL's channels, page faults
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    MPI_Barrier(comm);
    const double t0 = MPI_Wtime();
    run();
    t.push_back(slowest(MPI_Wtime() - t0, comm));
  }
  return ts::bench::median(t);
}

/// A smooth field: 1 + a bump, so that every sweep does real arithmetic.
void fill_smooth(const ts::View<float, 3>& v) {
  const auto e = v.extents();
  for (ts::index_t z = 0; z < e[0]; ++z)
    for (ts::index_t y = 0; y < e[1]; ++y)
      for (ts::index_t x = 0; x < e[2]; ++x) v(z, y, x) = 1.0f + 1e-3f * float((x + 2 * y + 3 * z) % 17);
}

int fail(int rank, const std::string& msg) {
  if (rank == 0) std::fprintf(stderr, "tessera-mpi-bench: %s\n\n%s", msg.c_str(), usage);
  MPI_Finalize();
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  ts::bench::user_case c;
  c.rank = 3;
  bool weak = true;
  int steps = 100, reps = 5, fuse_depth = 4;
  std::string transports = "all";
  std::string grid = "overlap";
  std::array<int, 3> given{};  // --grid AxBxC
  std::string size_text = "512x512x512";
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      if (rank == 0) std::fputs(usage, stdout);
      MPI_Finalize();
      return 0;
    }
    if (i + 1 >= argc) return fail(rank, "unknown argument or missing value: '" + a + "'");
    const std::string v = argv[++i];
    if (a == "--size" || a == "--local") {
      weak = a == "--local";
      size_text = v;
    } else if (a == "--steps" || a == "--reps") {
      char* end = nullptr;
      const long n = std::strtol(v.c_str(), &end, 10);
      if (v.empty() || *end || n < 1 || n > 100000) return fail(rank, a + " wants an integer from 1 to 100000, got '" + v + "'");
      (a == "--steps" ? steps : reps) = static_cast<int>(n);
    } else if (a == "--fuse-depth") {
      char* end = nullptr;
      const long n = std::strtol(v.c_str(), &end, 10);
      if (v.empty() || *end || n < 0 || n > 8) return fail(rank, "--fuse-depth wants an integer from 0 to 8, got '" + v + "'");
      fuse_depth = static_cast<int>(n);
    } else if (a == "--grid") {
      grid = v;
      if (v != "overlap" && v != "slab" && v != "mpi") {
        ts::bench::user_case g;
        g.rank = 3;
        long long product = 1;
        if (!ts::bench::parse_user_size(v, g).empty() || (product = g.n[0] * g.n[1] * g.n[2]) != size)
          return fail(rank, "--grid wants overlap, slab, mpi or a process grid AxBxC whose product is the " +
                                std::to_string(size) + " ranks, got '" + v + "'");
        given = {int(g.n[0]), int(g.n[1]), int(g.n[2])};
      }
    } else if (a == "--transport") {
      if (v != "all" && !tmpi::transport_by_name(v))
        return fail(rank, "--transport wants nccl, host-staged, cuda-aware-mpi or all, got '" + v + "'");
      transports = v;
    } else {
      return fail(rank, "unknown argument '" + a + "'");
    }
  }
  if (auto e = ts::bench::parse_user_size(size_text, c); !e.empty()) return fail(rank, e);
  using T = float;
  constexpr int ghost = 1;  // the 7-point step's reach
  // the process grid: for weak scaling chosen on the block's shape grown by the ranks (the
  // global grid is then the block times the grid), for strong scaling on the global grid
  const ts::extents<3> block{c.n[0], c.n[1], c.n[2]};
  const ts::extents<3> shape = weak ? ts::extents<3>{block[0] * size, block[1] * size, block[2] * size} : block;
  std::array<int, 3> dims = given;
  if (grid == "overlap") dims = tmpi::overlapping_process_grid(shape, size, ghost);
  if (grid == "slab") dims = {size, 1, 1};
  if (grid == "mpi" && weak) MPI_Dims_create(size, 3, dims.data());
  ts::extents<3> global = block;
  if (weak) {
    if (dims == std::array<int, 3>{}) dims = {size, 1, 1};  // nothing overlaps: grow along axis 0
    for (int a = 0; a < 3; ++a) global[a] *= dims[a];
  }
  if (global.size() > (1LL << 34)) return fail(rank, "the global grid " + global.to_string() + " exceeds 2^34 points");
  // one GPU a rank
  const auto node = tmpi::placement_on_node();
  const int gpus = ts::cuda::device_count();
  if (gpus < node.ranks) return fail(rank, std::to_string(node.ranks) + " ranks on a node with " + std::to_string(gpus) + " GPU(s): one GPU a rank");
  cudaSetDevice(node.rank);
  std::vector<tmpi::transport> list;
  for (auto t : {tmpi::transport::nccl, tmpi::transport::cuda_aware_mpi, tmpi::transport::host_staged})
    if ((transports == "all" && tmpi::transport_unavailable_reason(t).empty()) || transports == tmpi::to_string(t))
      list.push_back(t);

  const tmpi::cartesian_domain<3> dom(MPI_COMM_WORLD, global, {}, dims);
  const auto bytes_needed = (fuse_depth > 0 ? 4.0 : 2.0) * double(dom.local_extents().size()) * sizeof(T) * 1.1;
  const auto mem = ts::cuda::device_memory();
  if (double(mem.free) < bytes_needed)
    return fail(rank, "rank " + std::to_string(rank) + "'s block " + dom.local_extents().to_string() + " needs " +
                          std::to_string(bytes_needed / 1e9) + " GB of GPU memory, " +
                          std::to_string(double(mem.free) / 1e9) + " GB free");
  const double h = 1.0 / double(global[2] + 1);
  const auto step = ts::heat_step<3, 2>(1.0, 0.9 * ts::heat_stability_limit<3, 2>(1.0, ts::array<T, 3>{T(h), T(h), T(h)}),
                                         ts::array<T, 3>{T(h), T(h), T(h)});
  const auto bc = ts::boundary_conditions<3>::uniform(ts::boundary::dirichlet(0));
  tmpi::distributed_view<T, 3, ts::CudaSpace> u("u", dom, ghost), v("v", u);
  {
    ts::View<T, 3> init("init", u.local().layout());
    fill_smooth(init);
    ts::deep_copy(u.local(), init);
  }
  const double updates = double(global.size()) * steps;
  if (rank == 0)
    std::printf("tessera-mpi-bench: %d rank(s), process grid %s, global %s (block %s on rank 0), fp32 7-point, %d steps, "
                "median of %d, %s\n",
                size, dom.describe_grid().c_str(), global.to_string().c_str(), dom.local_extents().to_string().c_str(),
                steps, reps, ts::cuda::device_description(node.rank).c_str());
  for (const auto t : list) {
    tmpi::device_exchange<T, 3> ex(u, t);
    const double overlapped = median_seconds(reps, dom.comm(), [&] {
      tmpi::iterate(ts::cuda::automatic{}, step, u, v, steps, bc, ex, tmpi::overlap::automatic);
    });
    const double serial = median_seconds(reps, dom.comm(), [&] {
      tmpi::iterate(ts::cuda::automatic{}, step, u, v, steps, bc, ex, tmpi::overlap::off);
    });
    const double sweeps = median_seconds(reps, dom.comm(), [&] {
      for (int k = 0; k < steps; ++k) ts::apply(ts::cuda::automatic{}, step, k % 2 ? v.local() : u.local(),
                                                k % 2 ? u.local() : v.local(), ex.compute_stream());
      cudaStreamSynchronize(ex.compute_stream());
    });
    const double halos = median_seconds(reps, dom.comm(), [&] {
      for (int k = 0; k < steps; ++k) tmpi::fill_halos(u, bc, ex);
    });
    // the overlapped step's sweeps (the inner box, then the shell's boxes on their streams)
    // with nothing exchanged: what splitting the block costs, apart from the messages
    double boxes = 0;
    if (ex.can_overlap(u)) {
      // as mpi::iterate splits under walls filled once: only the faces with a neighbour wait
      const auto split =
          tmpi::overlap_boxes<3>(dom.dims(), dom.local_extents(), ghost, tmpi::faces_waiting_for_halos(dom, false));
      boxes = median_seconds(reps, dom.comm(), [&] {
        for (int k = 0; k < steps; ++k) {
          const auto& in = k % 2 ? v.local() : u.local();
          const auto& out = k % 2 ? u.local() : v.local();
          tmpi::overlapped_step(ex, split, [] {}, [] {}, [&](const tmpi::block_box<3>& b, cudaStream_t s) {
            ts::apply(ts::cuda::automatic{}, step, in.box(b.first, b.count), out.box(b.first, b.count), s);
          });
        }
        cudaStreamSynchronize(ex.compute_stream());
      });
    }
    // temporal blocking across ranks: the same step on views with deep halos
    double fused = 0, fused_only = 0;
    int k = 1;
    if (fuse_depth > 0) {
      tmpi::distributed_view<T, 3, ts::CudaSpace> fu("fu", dom, fuse_depth * ghost), fv("fv", fu);
      ts::deep_copy(fu.local(), [&] {
        ts::View<T, 3> init("init", fu.local().layout());
        fill_smooth(init);
        return init;
      }());
      k = tmpi::steps_between_exchanges(ts::cuda::automatic{}, step, fu, bc);
      fused = median_seconds(reps, dom.comm(), [&] { tmpi::iterate(ts::cuda::automatic{}, step, fu, fv, steps, bc, ex); });
      if (k >= 2) {
        const auto within = std::optional(tmpi::pass_conditions(dom, bc));
        const auto a = tmpi::grown_block(fu, (k - 1) * ghost, ghost), b = tmpi::grown_block(fv, (k - 1) * ghost, ghost);
        fused_only = median_seconds(reps, dom.comm(), [&] {
          for (int done = 0, i = 0; done < steps; done += k, ++i)
            ts::cuda::sweep_steps(ts::cuda::automatic{}, step, i % 2 ? b : a, i % 2 ? a : b, std::min(k, steps - done),
                                  within);
          cudaDeviceSynchronize();
        });
      }
    }
    if (rank == 0) {
      auto rate = [&](double s) { return updates / s * 1e-9; };
      char boxes_rate[32] = "-";
      if (boxes > 0) std::snprintf(boxes_rate, sizeof boxes_rate, "%.2f", rate(boxes));
      std::printf("  %-15s overlapped %8.2f GCell-updates/s (%.3f ms/step) | serial %8.2f | sweeps only %8.2f | "
                  "boxes only %s | halos only %.3f ms/step | overlap %s\n",
                  tmpi::to_string(t).c_str(), rate(overlapped), overlapped / steps * 1e3, rate(serial), rate(sweeps),
                  boxes_rate,
                  halos / steps * 1e3, ex.can_overlap(u) ? "on" : "not used (needs a split axis, the last axis whole)");
      if (fuse_depth > 0)
        std::printf("  %-15s fused %8.2f GCell-updates/s (%.3f ms/step; %d step(s) an exchange, halos %d deep) | "
                    "fused passes only %s\n",
                    "", rate(fused), fused / steps * 1e3, k, fuse_depth * ghost,
                    fused_only > 0 ? std::to_string(rate(fused_only)).c_str() : "- (not fused)");
      std::printf("csv,%d,%s,%s,%s,%d,%.3f,%.3f,%.3f,%.5f,%.3f,%.3f,%.3f,%d\n", size, dom.describe_grid().c_str(),
                  global.to_string().c_str(), tmpi::to_string(t).c_str(), steps, rate(overlapped), rate(serial),
                  rate(sweeps), halos / steps * 1e3, boxes > 0 ? rate(boxes) : 0.0, fused > 0 ? rate(fused) : 0.0,
                  fused_only > 0 ? rate(fused_only) : 0.0, k);
    }
  }
  MPI_Finalize();
  return 0;
}
