// Messages between cluster nodes (docs/protocol.md section 10.1): frontend <-> metasrv (route
// fills, cache invalidation, DDL submission), frontend <-> datanode (writes, scans), datanode <->
// metasrv (heartbeats with lease replies, region RPCs and mailbox instructions with their replies).
// Plain data: the sim::Network carries them by value, and Hash() feeds cluster fingerprints.
// Correlation ids (`corr`) are unique per sender; replies echo them.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "model/meta/ids.h"
#include "model/meta/region_route.h"
#include "model/meta/table_info.h"
#include "model/node/message_fwd.h"
#include "model/node/reply.h"
#include "model/node/staging_info.h"
#include "model/partition/expr.h"
#include "model/partition/schema.h"
#include "model/sql/statement.h"
#include "sim/fingerprint.h"
#include "sim/network.h"

namespace repartsim::model {

// ---- frontend <-> metasrv -----------------------------------------------------------------
struct RouteRequest {
  uint64_t corr = 0;
  TableId table;
};
struct RouteReply {
  uint64_t corr = 0;
  TableId table;
  bool found = false;
  TableRoute route;
  TableInfo info;
  uint64_t epoch = 0;  // invalidation epoch of the table when the metasrv read it
};
struct InvalidateCache {
  TableId table;
  uint64_t epoch = 0;  // the table's invalidation epoch after this change
};
struct InvalidateAck {
  TableId table;
  uint64_t epoch = 0;
};

// A DDL task a frontend submits to the metasrv (GreptimeDB's SubmitDdlTaskRequest, a unary
// call): the metasrv submits the procedure and answers when it ends (it waits on the
// procedure's watcher), so the reply is the DDL's outcome. `ddl` names the History record
// (0: the scenario's setup CREATE TABLE, which has none).
struct CreateTableTask {
  TableInfo info;
  TableRoute route;  // regions with their leaders (placement decided by the client)
};
// What the frontend's validation produced for the repartition procedure's persistent context.
struct RepartitionTask {
  TableInfo info;
  sql::AlterRepartition::Kind kind = sql::AlterRepartition::Kind::kRepartition;
  std::optional<std::vector<std::string>> target_columns;
  std::vector<PartitionExpr> from;
  std::vector<PartitionExpr> to;
  int64_t timeout_ms = 60000;
};
struct DdlSubmit {
  uint64_t corr = 0;
  uint64_t ddl = 0;
  std::variant<CreateTableTask, RepartitionTask> task;
};
enum class DdlOutcome : uint8_t {
  kDone,         // the procedure ended Done
  kFailed,       // it ended Failed (rolled back or aborted); `error` says why
  kUnavailable,  // not submitted: the procedure manager is not running (leader start)
};
struct DdlReply {
  uint64_t corr = 0;
  DdlOutcome outcome = DdlOutcome::kDone;
  uint64_t procedure = 0;  // 0 when not submitted
  std::string error;
};

// ---- frontend <-> datanode ----------------------------------------------------------------
struct RegionWrite {
  RegionId region;
  std::vector<Row> rows;
  std::optional<uint64_t> version;  // None: unversioned (bulk batcher, or no expr)
};
struct WriteRequest {
  uint64_t corr = 0;
  std::vector<RegionWrite> writes;
  // The client write (History::writes id) the request carries, so a report names the write
  // a region accepted by identity rather than by equal row values. For reports only: no
  // handler reads it and it is not hashed (a real request has no such id; corr is its own).
  uint64_t write_id = 0;
};
struct RegionWriteResult {
  RegionId region;
  ReplyCode code = ReplyCode::kOk;
  std::string message;
};
struct WriteReply {
  uint64_t corr = 0;
  std::vector<RegionWriteResult> results;
};
struct ScanRequest {
  uint64_t corr = 0;
  RegionId region;
  std::optional<uint64_t> planned_version;
  // The table route version the scan was planned with (Rule::kRouteFencedReads; else 0).
  uint64_t route_version = 0;
  // An unfiltered count(*): the region answers with a count, not rows (an append-mode
  // region from its statistics where it may, see Rule::kExactCountStatistics).
  bool count_only = false;
};
struct ScanResponse {
  uint64_t corr = 0;
  RegionId region;
  ReplyCode code = ReplyCode::kOk;
  std::string message;
  std::vector<Row> rows;
  uint64_t count = 0;  // count_only requests: the region's count (rows is empty)
};

// ---- datanode <-> metasrv -----------------------------------------------------------------
struct Heartbeat {
  sim::SimTime sent_at;
  std::vector<RegionId> regions;  // regions open on the datanode
};
struct RegionLease {
  RegionId region;
  RegionRole role = RegionRole::kLeader;
  // Version of the table route the metasrv computed this lease from (0: no route yet). Used
  // by the datanode only under Rule::kVersionedLeases; the real RegionLease has no such field.
  uint64_t route_version = 0;
};
struct HeartbeatReply {
  sim::SimTime lease_deadline;      // heartbeat send time + region lease
  std::vector<RegionLease> leases;  // regions the datanode may keep, with their role
  std::vector<RegionId> closeable;  // regions no route or operation knows: close them
};

// Metasrv -> datanode region requests (direct RPCs and mailbox instructions).
struct CreateRegionOp {
  TableSchema schema;
  std::optional<PartitionExpr> expr;
  bool awaiting_apply = false;  // a repartition target fenced until it applies (reference)
};
struct DropRegionOp {};
struct FlushRegionOp {};
struct EnterStagingOp {
  StagingInfo directive;
};
struct RemapManifestOp {
  std::vector<RegionId> inputs;
  std::map<RegionId, std::vector<RegionId>> mapping;
  std::map<RegionId, std::optional<PartitionExpr>> target_exprs;
};
struct ApplyStagingManifestOp {
  std::optional<PartitionExpr> expr;
  RegionId central;
};
// Region migration's instructions (docs/protocol.md section 13), all mailbox instructions:
// OpenRegion opens a migration candidate from its manifest as a Follower without WAL replay;
// DowngradeRegion makes a leader a Follower (leaving staging without merging, flushing) and
// answers its last entry id; UpgradeRegion catches a candidate up and makes it the leader;
// CloseRegion closes the downgraded region.
struct OpenRegionOp {
  bool skip_wal_replay = true;
};
struct DowngradeRegionOp {};
struct UpgradeRegionOp {
  std::optional<uint64_t> last_entry_id;  // the downgrade's, when it answered one
};
struct CloseRegionOp {};
const char* RegionOpName(const RegionOp& op);

struct RegionInstruction {
  RegionId region;
  RegionOp op;
};
// A direct RPC names one region. A mailbox instruction is one message per datanode naming every
// region of that datanode the state addresses, all with the same op kind (GreptimeDB's
// EnterStagingRegions, FlushRegions, ApplyStagingManifests: src/meta-srv/src/procedure/
// repartition/group/*.rs group the regions by peer); the datanode answers it with one response.
struct RegionRequest {
  uint64_t corr = 0;
  std::vector<RegionInstruction> items;  // non-empty, one op kind
  uint64_t route_version = 0;            // the table route version when it was sent
  const RegionOp& op() const { return items.front().op; }
};
// True iff `op` travels as a mailbox instruction on the datanode's heartbeat stream (Flush,
// EnterStaging, RemapManifest, ApplyStagingManifest and migration's OpenRegion,
// DowngradeRegion, UpgradeRegion, CloseRegion); CreateRegion and DropRegion are direct unary
// RPCs.
bool IsMailboxOp(const RegionOp& op);
struct RegionResult {
  RegionId region;
  ReplyCode code = ReplyCode::kOk;
  std::string message;
  uint64_t last_entry_id = 0;  // DowngradeRegion: the region's last WAL entry id
};
struct RegionResponse {
  uint64_t corr = 0;
  std::vector<RegionResult> results;  // one per item of the request, in its order
  bool mailbox = false;  // the reply of a mailbox instruction (heartbeat stream), not an RPC
};

// RegionOp and MessageBody, the variants of the ops and of the message kinds above, are
// declared in message_fwd.h.
struct Message {
  MessageBody body;
};

// A message a handler sends, in its NodeContext's outbox.
struct Outgoing {
  NodeId to;
  Message message;
  // The message id of the trace (`send ... id=N`), assigned when the cluster takes the message
  // from the outbox; copies of a duplicate share it. Not state: never fingerprinted.
  uint64_t id = 0;
};

// The channel a message travels on (GreptimeDB's transport): the heartbeat stream of a
// datanode or frontend with the metasrv carries heartbeats, lease replies, mailbox
// instructions and their replies, cache invalidations and their acks; everything else (route
// fetches, writes, scans, CreateRegion/DropRegion) is a unary call.
sim::Channel ChannelOf(const Message& message);
// True iff every message of kind `kind` (a kind or region op name) travels on a stream.
bool IsStreamKind(std::string_view kind);

// Stable kind name of a message, e.g. "WriteRequest" (trace lines, scenario fault filters).
const char* MessageKindName(const Message& message);
// True iff `kind` names a message kind or a region request's op (scripted message rules).
bool IsMessageKindName(std::string_view kind);
// "RouteRequest, RouteReply, ..., ApplyStagingManifest" for error messages.
std::string MessageKindList();
void HashMessage(sim::Hasher& h, const Message& message);
void HashRepartitionTask(sim::Hasher& h, const RepartitionTask& task);
void HashRow(sim::Hasher& h, const Row& row);

}  // namespace repartsim::model
