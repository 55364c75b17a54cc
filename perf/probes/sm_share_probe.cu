// Probe (not built by CMake): when a chain of six small copy kernels (1 MB each, the shape
// of a halo exchange's pack, send/receive and unpack) finishes on a high-priority stream
// while a marching sweep of 510x510x512 runs on another, against the chain alone, for 1 to
// 256 blocks a kernel. The sweep leaves SMs to the chain (its blocks are short), but not
// memory bandwidth: the chain slows 3.5x at 256 blocks and 6x or more with fewer, which is
// how NCCL's few-block kernels deliver halos late in an overlapped step. Results:
// perf/log/run-39.md. Build beside a CUDA build of tessera (B = its build folder):
//   nvcc -std=c++20 -O2 -arch=sm_90 -Xcompiler -fopenmp -DTESSERA_CUDA_PRECOMPILED=1 \
//       -DTESSERA_ENABLE_CUDA=1 -DTESSERA_HOST_PRECOMPILED=1 -Icore/include -Ibackends/host/include \
//       -Ibackends/cuda/include -Ialgorithms/include -I$B/generated/include perf/probes/sm_share_probe.cu \
//       $B/backends/cuda/libtessera_cuda.a $B/libtessera_host.a -o sm_share_probe && ./sm_share_probe
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <vector>
#include <tessera/algorithms/apply.hpp>
#include <tessera/algorithms/heat.hpp>
#include <tessera/core/deep_copy.hpp>
#include <tessera/cuda/cuda.hpp>
namespace ts = tessera;
using V = ts::View<float, 3, ts::CudaSpace>;
__global__ void copy_kernel(const float* a, float* b, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) b[i] = a[i] + 1.0f;
}
int main() {
  const int n = 512;
  V u("u", ts::extents<3>{n, n, n}, 1), v("v", u.layout());
  const double hh = 1.0 / (n + 1);
  const auto step = ts::heat_step<3, 2>(1.0, 0.9 * ts::heat_stability_limit<3, 2>(1.0, ts::array<float, 3>{float(hh), float(hh), float(hh)}),
                                        ts::array<float, 3>{float(hh), float(hh), float(hh)});
  int lo = 0, hi = 0;
  cudaDeviceGetStreamPriorityRange(&lo, &hi);
  cudaStream_t compute, comm;
  cudaStreamCreateWithPriority(&compute, cudaStreamNonBlocking, lo);
  cudaStreamCreateWithPriority(&comm, cudaStreamNonBlocking, hi);
  float *a, *b;
  const int m = 262144;  // a 1 MB message
  cudaMalloc(&a, m * sizeof(float));
  cudaMalloc(&b, m * sizeof(float));
  cudaEvent_t e0, e1, e2;
  cudaEventCreate(&e0), cudaEventCreate(&e1), cudaEventCreate(&e2);
  {
    const auto p = ts::cuda::make_plan<ts::star<3, 1>, float>(ts::cuda::automatic{}, ts::extents<3>{n - 2, n - 2, n}, ts::cuda::current_device_limits());
    std::printf("inner sweep plan: %s %s, chunk %d\n", p.strategy.c_str(), p.describe().c_str(), p.chunk);
  }
  const ts::array<ts::index_t, 3> f{1, 1, 0};
  const ts::extents<3> c{n - 2, n - 2, n};
  for (int blocks : {1, 8, 64, 256})
    for (int with_sweep : {0, 1}) {
      std::vector<float> chain, sweep;
      for (int rep = 0; rep < 11; ++rep) {
        cudaDeviceSynchronize();
        cudaEventRecord(e0, compute);
        cudaStreamWaitEvent(comm, e0);
        if (with_sweep) ts::apply(ts::cuda::automatic{}, step, u.box(f, c), v.box(f, c), compute);
        for (int k = 0; k < 6; ++k) copy_kernel<<<blocks, 256, 0, comm>>>(k % 2 ? b : a, k % 2 ? a : b, m);
        cudaEventRecord(e1, comm);
        cudaEventRecord(e2, compute);
        cudaDeviceSynchronize();
        float t1 = 0, t2 = 0;
        cudaEventElapsedTime(&t1, e0, e1);
        cudaEventElapsedTime(&t2, e0, e2);
        if (rep) chain.push_back(t1 * 1e3f), sweep.push_back(t2 * 1e3f);
      }
      std::sort(chain.begin(), chain.end());
      std::sort(sweep.begin(), sweep.end());
      std::printf("chain of 6 copies of 1 MB, %3d blocks of 256, %s: chain done at %7.1f us, sweep done at %7.1f us (medians of 10)\n",
                  blocks, with_sweep ? "beside the inner sweep" : "alone                 ", chain[5], sweep[5]);
    }
  std::printf("cuda error: %s\n", cudaGetErrorString(cudaGetLastError()));
}
