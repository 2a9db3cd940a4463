// The options in effect, as every layer reads them: the runtime object's
// (runtime/runtime.h) once it is built, the defaults before. Apart from the
// lifecycle (state.h) so that the logger, which reads the options, stays below
// what logs.
#pragma once
#include <atomic>

#include "common/options.h"

namespace cudaleak {

namespace detail {
inline constinit std::atomic<const Options*> g_options{nullptr};
const Options& default_options();
}  // namespace detail
inline const Options& options() {  // inline: tracked calls read it
  if (const Options* bound = detail::g_options.load(std::memory_order_acquire)) [[likely]]
    return *bound;
  return detail::default_options();
}
void bind_options(const Options& options);

}  // namespace cudaleak
