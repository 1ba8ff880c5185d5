// The seam through which node handlers ask whether to crash at a named site between two
// durable writes. The cluster connects it to sim::ShouldCrash; when it returns true the handler
// stops at once (what was written durably stays) and returns ReplyCode::kCrashed, and the
// caller must crash the node. Site names are stable strings such as "datanode.flush.after_sst".
// Every node handler gets one through its NodeContext.
#pragma once

#include <string_view>

namespace repartsim::model {

class CrashHook {
 public:
  virtual ~CrashHook() = default;
  virtual bool ShouldCrash(std::string_view site) = 0;
};

// A hook that never fires.
class NoCrashHook final : public CrashHook {
 public:
  bool ShouldCrash(std::string_view) override { return false; }
};

}  // namespace repartsim::model
