#pragma once
// The check the CUDA point-function tests share (test_cuda_point_function.cu,
// test_cuda_point_function_tiles.cu: two units, so that neither takes long to compile).
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <tuple>
#include <type_traits>

#include "../support/cuda_support.hpp"
#include "../support/test_support.hpp"

namespace ts = tessera;
using namespace ts::test;
using ts::off;

namespace {

/// fn over host copies of `in` with host::serial (into ref) and with the Kokkos reference
/// (kokkos::mdrange: the same function through MDRangePolicy), and over device copies with
/// policy P; the device outputs start poisoned (NaN interior, sentinel ghosts) and must
/// match both references.
template <class P, class F, class T, int Rank, std::size_t NI, std::size_t NO>
void check_against_host(const F& fn, const ts::input_fields<T, Rank, ts::HostSpace, NI>& in,
                        const ts::output_fields<T, Rank, ts::HostSpace, NO>& ref, double tol) {
  ts::apply(ts::host::serial{}, fn, in, ref);
  ts::output_fields<T, Rank, ts::HostSpace, NO> kokkos_ref;
  for (std::size_t j = 0; j < NO; ++j) {
    kokkos_ref.views[j] = ts::View<T, Rank>(ref[j].label() + "_kokkos", ref[j].layout());
    poison(kokkos_ref.views[j]);
  }
  ts::apply(ts::kokkos::mdrange{}, fn, in, kokkos_ref);
  ts::input_fields<T, Rank, ts::CudaSpace, NI> din;
  for (std::size_t i = 0; i < NI; ++i) din.views[i] = to_device(in[i], in[i].label() + "_d");
  ts::output_fields<T, Rank, ts::CudaSpace, NO> dout;
  for (std::size_t j = 0; j < NO; ++j) {
    ts::View<T, Rank> poisoned("poisoned", ref[j].layout());
    poison(poisoned);
    dout.views[j] = to_device(poisoned, ref[j].label() + "_d");
  }
  ts::apply(P{}, fn, din, dout);
  for (std::size_t j = 0; j < NO; ++j) {
    const auto got = to_host(dout.views[j]);
    INFO(P::name());
    INFO(ref[j].label());
    CHECK(max_relative_error(kokkos_ref[j], ref[j]) <= tol);
    CHECK(max_relative_error(got, kokkos_ref[j]) <= tol);
    CHECK(max_relative_error(got, ref[j]) <= tol);
    CHECK(ghosts_changed(got) == 0);
  }
}

}  // namespace

/// Every listed CUDA strategy (cuda::strategies, default tiles), naive on a 3D block, then
/// cuda::automatic and tessera::automatic: a new strategy is tested here without an edit.
template <class... Strategies>
std::tuple<Strategies..., ts::cuda::naive<16, 4, 4>, ts::cuda::automatic, ts::automatic> point_policies_of(
    ts::type_list<Strategies...>);
using point_policies = decltype(point_policies_of(ts::cuda::strategies{}));
