// Must not compile: a policy asked to run on views in a memory space it cannot reach.
#include <string>
#include <tessera/tessera.hpp>

struct gpu_only_space {
  static constexpr const char* name = "GpuOnlySpace";
  static constexpr bool host_accessible = false;
  static void* allocate(std::size_t, const std::string&) { return nullptr; }
  static void deallocate(void*) noexcept {}
};

int main() {
  tessera::View<float, 1, gpu_only_space> in("in", tessera::extents{8}, 1), out("out", tessera::extents{8}, 1);
  auto st = tessera::stencil(tessera::star<1, 1>{}, {-2.f, 1.f, 1.f});
  tessera::apply(tessera::host::serial{}, st, in, out);
}
