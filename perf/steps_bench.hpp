#pragma once
// tessera-bench's time-stepping sections (steps_bench.cpp): iterate with each boundary kind,
// and fused passes against one sweep a step. A unit of its own so that neither it nor
// bench.cpp takes a minute to compile.
#include <vector>

#include "bench_options.hpp"
#include "bench_result.hpp"

namespace tessera::bench {

/// iterate's cases (--smoke: two small ones checked; --quick or --iterate, without --fused:
/// timed); rows appended to rs, agree cleared on any mismatch against cuda::naive.
void run_iterate_section(const options& opt, double copy_gbs, std::vector<result>& rs, bool& agree);
/// The fused cases (--smoke: two small ones checked; --quick or --fused: timed, filtered
/// by --fused-case).
void run_fused_section(const options& opt, double copy_gbs, std::vector<result>& rs, bool& agree);
/// --fused with --shape/--size/--precision: the user's case, automatic against
/// cuda::temporal_blocking<> (2D and 3D shapes; nothing for 1D).
void run_fused_user_case(const options& opt, double copy_gbs, std::vector<result>& rs, bool& agree);

}  // namespace tessera::bench
