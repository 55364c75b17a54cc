// host::parallel's streaming stores (cache_hints.hpp): the whole cache lines of an output
// row are streamed, the partial lines at its ends stored as usual. Rows whose interior
// starts off a line boundary (row_alignment 1 or 3), rows shorter than a line and 1D rows
// split over threads must come out as host::serial's, every interior point written (the
// output starts NaN) and every ghost sentinel intact.
#include <cstdint>

#include "../support/cross_validation.hpp"
#include "../support/shapes_under_test.hpp"

namespace ts = tessera;
namespace tt = tessera::test;

namespace {

template <class S, class T>
void check_against_serial(const ts::host::parallel& policy, const ts::extents<S::rank>& e,
                          ts::index_t row_alignment, std::uint64_t seed) {
  constexpr int Rank = S::rank;
  const ts::layout<Rank> lay(e, ts::shape_traits<S>::radius, row_alignment);
  ts::View<T, Rank> in("in", lay), out("out", lay), ref("ref", lay);
  tt::fill_random(in, seed);
  tt::poison(out);
  tt::poison(ref);
  const auto st = tt::random_stencil<S, T>(seed + 1);
  ts::apply(ts::host::serial{}, st, in, ref);
  ts::apply(policy, st, in, out);
  const auto c = ts::compare(out, ref);
  INFO(ts::shape_name<S>(), " extents ", e.to_string(), " row alignment ", row_alignment, ": max rel error ",
       c.max_rel_error, " at ", c.worst_index_string(), ", non-finite ", c.nonfinite);
  CHECK(c.points == e.size());
  CHECK(c.nonfinite == 0);
  CHECK(c.max_rel_error <= tt::agreement_tolerance<T>());
  CHECK(tt::ghosts_changed(out) == 0);
}

template <int Rank>
std::vector<ts::extents<Rank>> row_cases() {
  if constexpr (Rank == 1) return {ts::extents<1>(2 * 4096 + 37), ts::extents<1>(16), ts::extents<1>(3)};
  else if constexpr (Rank == 2) return {ts::extents<2>(5, 37), ts::extents<2>(3, 64), ts::extents<2>(2, 3)};
  else return {ts::extents<3>(3, 5, 37), ts::extents<3>(2, 3, 16), ts::extents<3>(2, 2, 3)};
}

template <class T, class S>
void check_streaming_rows() {
  ts::host::parallel streaming;
  streaming.store = ts::host::stores::streaming;
  std::uint64_t seed = 101;
  for (const auto& e : row_cases<S::rank>())
    for (ts::index_t align : {ts::index_t(1), ts::index_t(3), ts::default_row_alignment<T>})
      check_against_serial<S, T>(streaming, e, align, seed += 7);
}

}  // namespace

#define TESSERA_STREAMING_ROWS(T, ...)                                                              \
  TEST_CASE("host::parallel streaming stores: ragged and misaligned rows, " TESSERA_STR(__VA_ARGS__) \
            " " #T) {                                                                               \
    check_streaming_rows<T, __VA_ARGS__>();                                                         \
  }
TESSERA_FOR_EACH_SHAPE(TESSERA_STREAMING_ROWS, float)
TESSERA_FOR_EACH_SHAPE(TESSERA_STREAMING_ROWS, double)

TEST_CASE_TEMPLATE("host::parallel streams outputs from streaming_store_bytes, caches smaller ones", T, float,
                   double) {
  const ts::index_t big = static_cast<ts::index_t>(ts::host::streaming_store_bytes / sizeof(T));
  ts::View<T, 1> small("small", ts::extents<1>(big - 1)), large("large", ts::extents<1>(big));
  const ts::host::parallel automatic;
  ts::host::parallel cached, streaming;
  cached.store = ts::host::stores::cached;
  streaming.store = ts::host::stores::streaming;
  CHECK_FALSE(ts::host::streams_output(automatic, small));
  CHECK(ts::host::streams_output(automatic, large) == ts::host::detail::streamable<T>);
  CHECK_FALSE(ts::host::streams_output(cached, large));
  CHECK(ts::host::streams_output(streaming, small) == ts::host::detail::streamable<T>);
#if defined(__x86_64__) || defined(_M_X64)
  CHECK(ts::host::detail::streamable<T>);  // x86-64 always has SSE2
#endif
}

TEST_CASE_TEMPLATE("host::parallel with default stores on a grid above the streaming size matches host::serial",
                   T, float, double) {
  // 8 x 96 x 1500 interior points: 4.4 MiB as float, above streaming_store_bytes.
  const ts::extents<3> e(8, 96, 1500);
  REQUIRE(static_cast<std::size_t>(e.size()) * sizeof(T) >= ts::host::streaming_store_bytes);
  check_against_serial<ts::star<3, 1>, T>(ts::host::parallel{}, e, ts::default_row_alignment<T>, 5);
  check_against_serial<ts::box<3, 1>, T>(ts::host::parallel{}, e, 1, 9);
}
