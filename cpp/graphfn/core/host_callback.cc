#include "graphfn/core/host_callback.h"

#include <atomic>

namespace graphfn {
namespace {
std::atomic<HostCallback> installed{nullptr};
}  // namespace

void set_host_callback(HostCallback callback) { installed.store(callback, std::memory_order_release); }

HostCallback host_callback() { return installed.load(std::memory_order_acquire); }

}  // namespace graphfn
