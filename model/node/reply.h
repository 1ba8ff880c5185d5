// Replies of datanode handlers: expected outcomes (docs/architecture.md, "Errors and exit codes").
// Codes carry the real system's status codes (StatusCode()) and retry hints (IsRetryable());
// messages use the real texts, e.g. "Partition expr version mismatch for region
// 4398046511104(1024, 0): request 5, expected 7". kCrashed is not a wire reply: it tells the
// caller that a crash point fired inside the handler and the node must be crashed now.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/meta/ids.h"
#include "model/partition/schema.h"

namespace repartsim::model {

enum class ReplyCode : uint8_t {
  kOk,
  kRegionNotFound,                // 4005 RegionNotFound
  kRegionNotReady,                // 4008: mito RegionState error (follower, downgrading, ...)
  kRejectWrite,                   // 5000 StorageUnavailable: staging with RejectAllWrites
  kPartitionExprVersionMismatch,  // 1004 InvalidArguments
  kStagingPartitionExprMismatch,  // 1002 Unexpected
  kUnexpected,                    // 1002 Unexpected (remap/apply consistency errors)
  kCrashed,                       // a crash point fired; not a wire reply
};

// The real status code: 0, 4005, 4008, 5000, 1004, 1002, 1002; kCrashed -> 0.
uint32_t StatusCode(ReplyCode code);
// "Ok", "RegionNotFound", "RegionNotReady", "RejectWrite", "PartitionExprVersionMismatch", ...
std::string_view ReplyCodeName(ReplyCode code);
// The retry hint the metasrv and clients see: RegionNotReady and RejectWrite are retryable.
bool IsRetryable(ReplyCode code);

struct Reply {
  ReplyCode code = ReplyCode::kOk;
  std::string message;         // "" for kOk
  uint64_t affected_rows = 0;  // writes only

  bool ok() const { return code == ReplyCode::kOk; }
  static Reply Ok(uint64_t affected_rows = 0) { return Reply{ReplyCode::kOk, {}, affected_rows}; }
  static Reply Crashed() { return Reply{ReplyCode::kCrashed, {}, 0}; }
};

struct ScanReply {
  ReplyCode code = ReplyCode::kOk;
  std::string message;
  std::vector<Row> rows;  // sorted by (primary key, time index), newest first within a key
  uint64_t count = 0;     // a count-only scan: the count (rows is empty)

  bool ok() const { return code == ReplyCode::kOk; }
};

// Replies with the real message texts.
// "Region 4398046511104(1024, 0) not found"
Reply RegionNotFoundReply(RegionId region);
// "Region 4398046511104(1024, 0) is in Follower state, expect: Leader(Writable)"
Reply RegionNotReadyReply(RegionId region, std::string_view state_name,
                          std::string_view expect = "Leader(Writable)");
// A region a datanode is still opening: under downgrade-waits-for-open a DowngradeRegion of it
// answers "Region R is in Opening state, expect: an open region" (OpeningReply), which the
// migration recognises by IsOpeningReply.
Reply OpeningReply(RegionId region);
bool IsOpeningReply(std::string_view message);
// "Engine write buffer is full, rejecting write requests of region 4398046511104(1024, 0)"
Reply RejectWriteReply(RegionId region);
// "Partition expr version mismatch for region 4398046511104(1024, 0): request 5, expected 7"
Reply VersionMismatchReply(RegionId region, uint64_t request, uint64_t expected);

}  // namespace repartsim::model
