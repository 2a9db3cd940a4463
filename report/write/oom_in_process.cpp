#include "report/write/oom_in_process.h"

#include <utility>

#include "report/gate/caching.h"
#include "report/model/builder.h"
#include "report/model/cuda_frames.h"
#include "report/model/place_name.h"
#include "report/oom/diagnose.h"
#include "report/render/cause_words.h"

namespace cudaleak::report {

std::string caching_allocator_of_call(std::span<const uint64_t> ips, FrameResolver* resolver) {
  return gate::caching_allocator_of(resolve_stack(ips, resolver));
}

bool ends_held_call(const RawOom& held, const RawOom& later) {
  return oom::is_attempt(held.event, held.cache, later.event, later.cache);
}

std::vector<OwnedBlocks> tensor_blocks_by_owner(const AllocatorDevice& view, const RawSnapshot& snapshot, int device) {
  return blocks_by_owner(view, memory_ranges(snapshot, device));
}

OomEvent told_event(const RawOom& raw, const std::function<std::vector<uint64_t>(uint32_t stack_id)>& stack_of,
                    FrameResolver* resolver) {
  OomEvent e = raw.event;
  e.stack = e.has_jax && !raw.python_stack.empty() ? raw.python_stack : resolve_stack(stack_of(raw.stack_id), resolver);
  if (e.has_jax) {
    std::erase_if(e.stack, [](const Frame& f) { return f.python && basename(f.file).starts_with("cudaleak_"); });
  } else if (e.has_pytorch) {
    // The observer's own frames (cudaleak_torch.py) are not the program's.
    std::erase_if(e.stack, [](const Frame& f) { return f.python && basename(f.file) == "cudaleak_torch.py"; });
  } else {
    e.api = outermost_api(e.stack, e.api);
  }
  for (const RawOomAttempt& a : raw.attempts) {
    OomAttempt& out_attempt = e.attempts.emplace_back(oom::attempt_of(a.event));
    if (a.event.api == kJaxApi) {  // XLA raised the failure again
      out_attempt.stack = e.stack;
      continue;
    }
    out_attempt.stack = resolve_stack(stack_of(a.stack_id), resolver);
    out_attempt.api = outermost_api(out_attempt.stack, out_attempt.api);
  }
  if (e.has_pytorch)
    attribute_by_segment(e.pytorch, raw.owned, [&](uint32_t id) { return resolve_stack(stack_of(id), resolver); });
  for (const RawOomSite& site : raw.sites) {
    OomSite o;
    o.kind = site.kind;
    o.stack = resolve_stack(stack_of(site.stack_id), resolver);
    o.api = outermost_api(o.stack, site.hook);
    o.where = where_of(o.stack, o.api);
    o.bytes = site.bytes;
    o.count = site.count;
    o.first_ns = site.first_ns;
    o.last_ns = site.last_ns;
    e.top_sites.push_back(std::move(o));
  }
  for (const RawReservation& v : raw.reservations)
    e.reservations.push_back(resolve_reservation(v, resolve_stack(stack_of(v.stack_id), resolver)));
  // The report keeps each cause's sentence: said here, where the data that
  // makes it is at hand (report/model/ writes it, and cannot say it).
  e.diagnosis = oom::diagnose(e);
  render::say_causes(e);
  return e;
}

}  // namespace cudaleak::report
