#pragma once
// The check every algorithm makes of the views it is given before it touches them: a
// default-constructed view has no memory, and an algorithm handed one must say which
// argument it was instead of dereferencing nothing.
#include <string>

#include "tessera/core/errors.hpp"
#include "tessera/core/view.hpp"

namespace tessera::detail {

/// Throws invalid_argument_error "<who>: the <role> is an unallocated ..." unless v holds
/// memory. who: the algorithm ("tessera::compare"); role: the argument ("reference").
template <class T, int Rank, class Space>
void require_allocated(const View<T, Rank, Space>& v, const std::string& who, const char* role) {
  if (!v.allocated())
    throw invalid_argument_error(who + ": the " + role +
                                 " is an unallocated (default-constructed) view; create it with "
                                 "View(label, extents, ghost) or View(label, layout) first");
}

}  // namespace tessera::detail
