// `tessera validate` in float: every built-in shape for any policy (see validate_all.hpp).
#include "validate_all.hpp"

template bool tessera::app::validate_shapes<float>(const std::string&, int);
