# CUDA set-up for tessera's compiled kernels.
# - One architecture by default (90: H100/H200) to keep nvcc time inside CI's budget;
#   override with -DCMAKE_CUDA_ARCHITECTURES=80;90 or "native", or with CMake's CUDAARCHS
#   environment variable (.ci/run sets 90-virtual: PTX only, no ptxas, on its GPU-less machine).
# - CMake 3.25 does not know that nvcc 13 accepts C++20 (CMAKE_CUDA_STANDARD 20 fails
#   there), so the flag is passed by hand where CMake cannot; CMake >= 3.27 sets it itself.
include_guard(GLOBAL)
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES AND NOT DEFINED ENV{CUDAARCHS})
  set(CMAKE_CUDA_ARCHITECTURES 90)
endif()
enable_language(CUDA)
find_package(CUDAToolkit REQUIRED)
message(STATUS "tessera: CUDA ${CMAKE_CUDA_COMPILER_VERSION}, architectures ${CMAKE_CUDA_ARCHITECTURES}")

# Flags every CUDA translation unit that includes tessera needs (propagated to users):
# C++20 (by hand, see above), constexpr host functions callable from device code, and
# __host__ __device__ lambdas (point functions written as TESSERA_HD lambdas).
add_library(tessera_cuda_flags INTERFACE)
target_compile_options(tessera_cuda_flags INTERFACE
  $<$<COMPILE_LANGUAGE:CUDA>:-std=c++20 --expt-relaxed-constexpr --extended-lambda -Xcudafe=--diag_suppress=esa_on_defaulted_function_ignored>)
