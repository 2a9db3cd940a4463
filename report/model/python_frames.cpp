#include "common/frame_tags.h"
#include "report/model/builder.h"

namespace cudaleak::report {

namespace {

class WithPythonFrames : public FrameResolver {
 public:
  WithPythonFrames(std::unique_ptr<FrameResolver> native, std::vector<Frame> python)
      : native_(std::move(native)), python_(std::move(python)) {}

  std::vector<Frame> resolve(uint64_t ip, bool return_address) override {
    const bool device = is_device_frame_ip(ip);
    if (!device && !is_python_frame_ip(ip))
      return native_ ? native_->resolve(ip, return_address) : std::vector<Frame>{};
    uint32_t id = python_frame_id(ip);
    Frame f;
    if (id >= 1 && id <= python_.size()) f = python_[id - 1];
    else f.function = "?";  // a frame interned after the table was read
    f.ip = ip;
    f.python = !device;
    if (device) f.module = "[device]";
    return {f};
  }

 private:
  std::unique_ptr<FrameResolver> native_;
  std::vector<Frame> python_;
};

class Borrowed : public FrameResolver {
 public:
  explicit Borrowed(FrameResolver& resolver) : resolver_(resolver) {}
  std::vector<Frame> resolve(uint64_t ip, bool return_address) override {
    return resolver_.resolve(ip, return_address);
  }

 private:
  FrameResolver& resolver_;
};

}  // namespace

std::unique_ptr<FrameResolver> borrow(FrameResolver& resolver) { return std::make_unique<Borrowed>(resolver); }

std::unique_ptr<FrameResolver> with_python_frames(std::unique_ptr<FrameResolver> native, std::vector<Frame> python) {
  return std::make_unique<WithPythonFrames>(std::move(native), std::move(python));
}

}  // namespace cudaleak::report
