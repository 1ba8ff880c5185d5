// Declarations of the messages between nodes (model/node/message.h defines them) for headers
// that only name them: handler signatures, the handler context's outbox, procedure contexts.
// Such a header includes this one, so a change to a message rebuilds the files that build or
// read messages, not every file that includes a node or procedure header. The two variants
// name incomplete types here; a file that visits or constructs one includes message.h.
#pragma once

#include <variant>

namespace repartsim::model {

struct RouteRequest;
struct RouteReply;
struct InvalidateCache;
struct InvalidateAck;
struct CreateTableTask;
struct RepartitionTask;
struct DdlSubmit;
struct DdlReply;
struct RegionWrite;
struct WriteRequest;
struct RegionWriteResult;
struct WriteReply;
struct ScanRequest;
struct ScanResponse;
struct Heartbeat;
struct RegionLease;
struct HeartbeatReply;
struct CreateRegionOp;
struct DropRegionOp;
struct FlushRegionOp;
struct EnterStagingOp;
struct RemapManifestOp;
struct ApplyStagingManifestOp;
struct OpenRegionOp;
struct DowngradeRegionOp;
struct UpgradeRegionOp;
struct CloseRegionOp;
struct RegionInstruction;
struct RegionRequest;
struct RegionResult;
struct RegionResponse;
struct Message;
struct Outgoing;

using RegionOp = std::variant<CreateRegionOp, DropRegionOp, FlushRegionOp, EnterStagingOp,
                              RemapManifestOp, ApplyStagingManifestOp, OpenRegionOp,
                              DowngradeRegionOp, UpgradeRegionOp, CloseRegionOp>;

using MessageBody =
    std::variant<RouteRequest, RouteReply, InvalidateCache, InvalidateAck, WriteRequest, WriteReply,
                 ScanRequest, ScanResponse, Heartbeat, HeartbeatReply, RegionRequest,
                 RegionResponse, DdlSubmit, DdlReply>;

}  // namespace repartsim::model
