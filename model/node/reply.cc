#include "model/node/reply.h"

#include "sim/assert.h"

namespace repartsim::model {

uint32_t StatusCode(ReplyCode code) {
  switch (code) {
    case ReplyCode::kOk:
      return 0;
    case ReplyCode::kRegionNotFound:
      return 4005;
    case ReplyCode::kRegionNotReady:
      return 4008;
    case ReplyCode::kRejectWrite:
      return 5000;
    case ReplyCode::kPartitionExprVersionMismatch:
      return 1004;
    case ReplyCode::kStagingPartitionExprMismatch:
      return 1002;
    case ReplyCode::kUnexpected:
      return 1002;
    case ReplyCode::kCrashed:
      return 0;
  }
  REPARTSIM_UNREACHABLE();
}

std::string_view ReplyCodeName(ReplyCode code) {
  switch (code) {
    case ReplyCode::kOk:
      return "Ok";
    case ReplyCode::kRegionNotFound:
      return "RegionNotFound";
    case ReplyCode::kRegionNotReady:
      return "RegionNotReady";
    case ReplyCode::kRejectWrite:
      return "RejectWrite";
    case ReplyCode::kPartitionExprVersionMismatch:
      return "PartitionExprVersionMismatch";
    case ReplyCode::kStagingPartitionExprMismatch:
      return "StagingPartitionExprMismatch";
    case ReplyCode::kUnexpected:
      return "Unexpected";
    case ReplyCode::kCrashed:
      return "Crashed";
  }
  REPARTSIM_UNREACHABLE();
}

bool IsRetryable(ReplyCode code) {
  return code == ReplyCode::kRegionNotReady || code == ReplyCode::kRejectWrite;
}

Reply RegionNotFoundReply(RegionId region) {
  return Reply{ReplyCode::kRegionNotFound, "Region " + region.ToString() + " not found", 0};
}

Reply RegionNotReadyReply(RegionId region, std::string_view state_name, std::string_view expect) {
  std::string message = "Region " + region.ToString() + " is in ";
  message += state_name;
  message += " state, expect: ";
  message += expect;
  return Reply{ReplyCode::kRegionNotReady, std::move(message), 0};
}

namespace {
constexpr std::string_view kOpeningState = " is in Opening state, expect: an open region";
}  // namespace

Reply OpeningReply(RegionId region) {
  return Reply{ReplyCode::kRegionNotReady,
               "Region " + region.ToString() + std::string(kOpeningState), 0};
}

bool IsOpeningReply(std::string_view message) {
  return message.size() >= kOpeningState.size() &&
         message.substr(message.size() - kOpeningState.size()) == kOpeningState;
}

Reply RejectWriteReply(RegionId region) {
  return Reply{
      ReplyCode::kRejectWrite,
      "Engine write buffer is full, rejecting write requests of region " + region.ToString(), 0};
}

Reply VersionMismatchReply(RegionId region, uint64_t request, uint64_t expected) {
  return Reply{ReplyCode::kPartitionExprVersionMismatch,
               "Partition expr version mismatch for region " + region.ToString() + ": request " +
                   std::to_string(request) + ", expected " + std::to_string(expected),
               0};
}

}  // namespace repartsim::model
