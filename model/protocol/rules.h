// The rule switches of the model (docs/rules.md): one enumerator per switch, in the order of the
// table AllRules(), which gives each its stable name, description and default in both profiles
// (model/protocol/protocol.cc). Include this header only where a switch is consulted or listed:
// `protocol.On(Rule::kX)` needs it, carrying a Protocol does not (model/protocol/protocol.h).
// Adding a switch: an enumerator here, a row of the table in protocol.cc.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "model/protocol/protocol.h"

namespace repartsim::model {

enum class Rule : uint8_t {
  kVersionFenceUnversioned,   // reject writes without an expression version
  kRerouteOnVersionMismatch,  // frontend refreshes its route and re-routes on mismatch
  kFenceMergedAwaySources,    // merged-away sources stay RejectAllWrites until dropped
  kUnifiedNullRouting,        // row path, bulk path and file filter agree on NULL
  kAlignedPartitionRule,      // regions and exprs stay aligned when a route has no expr (P3)
  kFencedReads,               // scans carry the planned expression version; mismatch re-plans
  kDurableStaging,            // staged data survives leaving staging and a restart
  kLeasePromotesStaging,      // a StagingLeader lease re-promotes a demoted staging region (P11)
  kIdempotentRedispatch,      // re-dispatch after a metasrv crash resumes, never mismatches (P2)
  kPerGroupIndices,           // per-group transition indices (P1)
  kRollForwardAfterCommit,    // after the first ApplyStaging the parent only rolls forward (P2, P8)
  kFenceAllocatedRegions,     // new regions take no writes before ApplyStaging (P4, P5)
  kVersionedCacheFills,       // cache fills fenced by an invalidation epoch
  kAckedInvalidation,         // cache invalidations are acknowledged and retried
  kGcPositiveProof,           // GC deletes a file only with positive proof it is unreferenced
  kExactRuleChecker,          // the rule checker knows integer domains are discrete
  kDeallocateMergedAway,      // partial success still drops merged-away regions (P8)
  kIdempotentAllocate,        // re-executing AllocateRegion after its route commit resumes (P12)
  kTimeOrderedSequences,      // write sequences follow virtual time across regions (N1)
  kMetasrvValidatesRule,      // RepartitionStart checks the resulting rule itself (P9)
  kRowPathOverSchema,         // the row path reads any table column, never UndefinedColumn (P13)
  kVersionedLeases,           // leases carry the route version; a datanode ignores older ones
  kApplyStagingChecksFiles,   // an ApplyStagingManifest replay checks the remapped files
  kCloseableAfterRecovery,    // no closeable regions before procedures are recovered
  kFenceNewRegionsUntilCommit,  // an applied new region takes writes only after ExitStaging
  kDropTombstones,              // a dropped region is not re-created by an older CreateRegion
  kRouteFencedReads,            // scans carry the route version; a region that saw a newer refuses
  kExactCountStatistics,        // count(*) from file statistics only where no file needs filtering
  kTargetSequenceForeignFiles,  // adopted files rank at the target admission sequence (#8946)
  kVersionedRowWrites,          // row and Flight writes carry their expression version (#7628)
  kFilterForeignFiles,          // a scan filters files written under another expression (#7067)
  kKeepMemtableOnApply,         // leaving staging keeps the memtable's staged rows (#7695)
  kNullFirstFilter,             // the scan filter places a NULL key first, in one region (#7747)
  kRejectMergedAwayWrites,      // merged-away sources refuse writes from EnterStaging on (#7694)
  kDiscardRacedFills,           // a route fill that raced an invalidation is not cached (#7825)
  kStagingFlushExpr,            // a staging flush records the staging expression (#7461)
  kStagingFlushDropsMemtable,   // a staging flush removes the memtable it flushed (#6962)
  kExitStagingAppliesEdits,     // a staging exit applies its edits in memory too (#6962)
  kFailClosedReplay,            // a WAL entry that fails to apply fails the region open (#8809)
  kCompactionEffectiveSequences,  // compaction keeps adopted rows at their admission sequence
  kFenceCheckpoints,              // EnterStaging waits for a running manifest checkpoint (#8847)
  kApplySkipsRemovedFiles,        // an apply does not re-add files a compaction removed
  kGcRefsNeedOpenRegions,         // GC fails when a route region's leader has not opened it (#8445)
  kMigrationRespectsStaging,      // a migration fails while its region's route is Staging
  kAllocateRouteUnderLock,        // AllocateRegion reads the route under the table lock (#8115)
  kDowngradeWaitsForOpen,         // a downgrade of a region its leader is still opening waits
  kLockNewTargets,                // a repartition holds the regions it allocated until it ends
  kFenceCapturedPeers,            // a group follows a region a migration moved
  kDowngradedRefusesReads,        // a region a migration downgraded serves no reads
  kUpgradeAwaitsLease,            // an upgraded candidate takes writes once a lease names it
  kCount,
};

inline constexpr size_t kRuleCount = static_cast<size_t>(Rule::kCount);

struct RuleInfo {
  Rule rule;
  const char* name;         // stable, kebab-case: used in YAML, CLI and reports
  const char* description;  // one line
  bool greptime;            // default in profile `greptime`
  bool reference;           // default in profile `reference`
  // Historical switches only: the GreptimeDB pull request that added the protection before the
  // modelled commit ("#7628"); such a switch is on in both profiles. nullptr otherwise.
  const char* fixed_by = nullptr;
};

// The table of every switch, in Rule order.
const std::array<RuleInfo, kRuleCount>& AllRules();

static_assert(kRuleCount <= 64, "Protocol keeps its switches in a 64-bit mask");

}  // namespace repartsim::model
