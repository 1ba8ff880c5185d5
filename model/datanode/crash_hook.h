// The seam through which datanode handlers ask whether to crash at a named site between two
// durable writes. The cluster connects it to sim::ShouldCrash; when it returns true the handler
// stops at once (what was written durably stays) and returns ReplyCode::kCrashed, and the
// caller must crash the node. Site names are stable strings such as "datanode.flush.after_sst".
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

// Every crash site of the datanode, for registration with sim::CrashPointStats.
inline constexpr std::string_view kDatanodeCrashSites[] = {
    "datanode.write.after_wal",
    "datanode.create.after_manifest",
    "datanode.flush.after_sst",
    "datanode.flush.after_manifest",
    "datanode.drop.after_manifest",
    "datanode.enter_staging.after_clear",
    "datanode.remap.after_blob",
    "datanode.apply_staging.after_edit",
};

}  // namespace repartsim::model
