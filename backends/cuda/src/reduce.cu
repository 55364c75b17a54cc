// Interior reductions on the device: Thrust, and a hand-written block reduction.
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform_reduce.h>

#include <string>

#include "tessera/cuda/cuda_check.hpp"
#include "tessera/cuda/detail/interior_pair.hpp"
#include "tessera/cuda/detail/reduce.hpp"
#include "tessera/cuda/runtime.hpp"

namespace tessera::cuda::detail {
namespace {

template <class T, int Rank>
struct point_term {
  view_accessor<const T, Rank> a, b;
  reduction_kind kind;
  __host__ __device__ double operator()(index_t i) const {
    T xa, xb;
    interior_pair<T, Rank>{a, b}.load(i, xa, xb);
    const double x = static_cast<double>(xa);
    if (kind == reduction_kind::dot) return x * static_cast<double>(xb);
    if (kind == reduction_kind::sum_squares) return x * x;
    return fabs(x);
  }
};

struct combine {
  reduction_kind kind;
  __host__ __device__ double operator()(double x, double y) const {
    return kind == reduction_kind::max_abs ? max_keeping_nan(x, y) : x + y;
  }
};

constexpr int block_threads = 256;

template <class T, int Rank>
__global__ void __launch_bounds__(block_threads)
    block_reduce(point_term<T, Rank> term, index_t points, double* result) {
  __shared__ double part[block_threads];
  const bool is_max = term.kind == reduction_kind::max_abs;
  double acc = 0;  // 0 is the identity of both + and max |.|
  for (index_t i = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < points;
       i += static_cast<index_t>(gridDim.x) * blockDim.x) {
    const double v = term(i);
    acc = is_max ? max_keeping_nan(acc, v) : acc + v;
  }
  part[threadIdx.x] = acc;
  __syncthreads();
  for (int s = block_threads / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      part[threadIdx.x] = is_max ? max_keeping_nan(part[threadIdx.x], part[threadIdx.x + s])
                                 : part[threadIdx.x] + part[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    if (is_max)  // non-negative doubles order like their bit patterns, +NaN above +inf
      atomicMax(reinterpret_cast<unsigned long long*>(result), static_cast<unsigned long long>(__double_as_longlong(part[0])));
    else
      atomicAdd(result, part[0]);
  }
}

}  // namespace

template <class T, int Rank>
double reduce_interior(const view_accessor<const T, Rank>& a, const view_accessor<const T, Rank>& b,
                       reduction_kind kind, reduction_method method) {
  index_t points = 1;
  for (int d = 0; d < Rank; ++d) points *= a.n[d];
  if (points == 0) return 0;
  const point_term<T, Rank> term{a, b, kind};
  if (method == reduction_method::thrust) {
    try {
      return thrust::transform_reduce(thrust::device, thrust::counting_iterator<index_t>(0),
                                      thrust::counting_iterator<index_t>(points), term, 0.0, combine{kind});
    } catch (const std::exception& e) {
      throw backend_error(std::string("tessera: reduction (thrust::transform_reduce) on view '") + a.label +
                          "' failed: " + e.what());
    }
  }
  double* d_result = result_slot();
  double result = 0;
  TESSERA_CUDA_CHECK(cudaMemsetAsync(d_result, 0, sizeof(double)), "reduction result");
  const index_t sms = current_device_limits().multiprocessors;
  const index_t wanted = (points + block_threads - 1) / block_threads;
  const unsigned blocks = static_cast<unsigned>(wanted < 8 * sms ? wanted : 8 * sms);
  block_reduce<T, Rank><<<blocks, block_threads>>>(term, points, d_result);
  check_launch("block_reduce (view '" + std::string(a.label) + "')", "reduction block_atomic");
  TESSERA_CUDA_CHECK(cudaMemcpy(&result, d_result, sizeof(double), cudaMemcpyDeviceToHost), "reduction result");
  return result;
}

#define TESSERA_REDUCE_INSTANTIATE(T, R)                                                             \
  template double reduce_interior<T, R>(const view_accessor<const T, R>&, const view_accessor<const T, R>&, \
                                        reduction_kind, reduction_method);
TESSERA_REDUCE_INSTANTIATE(float, 1)
TESSERA_REDUCE_INSTANTIATE(float, 2)
TESSERA_REDUCE_INSTANTIATE(float, 3)
TESSERA_REDUCE_INSTANTIATE(double, 1)
TESSERA_REDUCE_INSTANTIATE(double, 2)
TESSERA_REDUCE_INSTANTIATE(double, 3)

}  // namespace tessera::cuda::detail
