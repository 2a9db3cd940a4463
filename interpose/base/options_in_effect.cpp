#include "interpose/base/options_in_effect.h"

namespace cudaleak {

const Options& detail::default_options() {
  // Built on first use, never destroyed: the library constructor can run
  // before this file's static initialisers, and hooks after static destructors.
  static const Options* defaults = new Options();
  return *defaults;
}
void bind_options(const Options& options) { detail::g_options.store(&options, std::memory_order_release); }

}  // namespace cudaleak
