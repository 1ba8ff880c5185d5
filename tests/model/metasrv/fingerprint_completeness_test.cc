// Goal: the metasrv's fingerprint covers every field that affects its future behaviour: id, up,
// the correlation counter, the kv store, the procedures, invalidation epochs, the request
// owners and inboxes (every field of a buffered response), the operating regions, pending
// invalidation acks, the resend time, the leader-start window and the DDL calls waiting on
// their procedures. The peers and the config are
// construction constants, the same in every state of a run; the route decode cache is derived.
// Method: one metasrv with an entry in every container (set through sim::FingerprintSeam);
// change one field at a time on a copy and require the fingerprint to differ.
#include "tests/model/fingerprint_completeness.h"

#include <gtest/gtest.h>

#include "model/metasrv/metasrv.h"

namespace repartsim::sim {

template <>
struct FingerprintSeam<model::Metasrv> {
  using M = model::Metasrv;
  static model::NodeId& id(M& m) { return m.id_; }
  static bool& up(M& m) { return m.up_; }
  static uint64_t& next_corr(M& m) { return m.next_corr_; }
  static std::map<model::TableId, uint64_t>& epochs(M& m) { return m.epochs_; }
  static std::map<uint64_t, model::ProcedureId>& corr_owner(M& m) { return m.corr_owner_; }
  static std::map<model::ProcedureId, model::Inbox>& inboxes(M& m) { return m.inboxes_; }
  static std::map<std::pair<model::NodeId, model::TableId>, uint64_t>& pending_acks(M& m) {
    return m.pending_acks_;
  }
  static SimTime& next_resend(M& m) { return m.next_resend_; }
  static std::optional<SimTime>& recover_at(M& m) { return m.recover_at_; }
  static auto& ddl_waiters(M& m) { return m.ddl_waiters_; }
};

}  // namespace repartsim::sim

namespace repartsim::model {
namespace {
namespace fingerprint_completeness_test {

using namespace testing;  // NOLINT
using Seam = sim::FingerprintSeam<Metasrv>;

constexpr TableId kTable{1024};
const RegionId kRegion = RegionId::Of(kTable, RegionNumber{0});
constexpr ProcedureId kOwner{1};

uint64_t Fp(const Metasrv& m) { return HashOf(m); }

Metasrv Base() {
  Metasrv m(NodeId{0}, {NodeId{1}, NodeId{2}}, {NodeId{3}});
  m.Submit(CreateTableProcedure{}, sim::AtMs(0));
  m.mutable_kv().Put("k", "v");
  Seam::epochs(m)[kTable] = 2;
  Seam::corr_owner(m)[7] = kOwner;
  Seam::inboxes(m)[kOwner][6] =
      RegionResponse{6, {RegionResult{kRegion, ReplyCode::kOk, ""}}, false};
  m.operating_regions().emplace(kRegion, kOwner);
  Seam::pending_acks(m)[{NodeId{3}, kTable}] = 2;
  Seam::next_resend(m) = sim::AtMs(1000);
  Seam::ddl_waiters(m)[kOwner] = {NodeId{3}, 4, 1};
  return m;
}

RegionResponse& Buffered(Metasrv& m) { return Seam::inboxes(m).at(kOwner).at(6); }
RegionResult& BufferedResult(Metasrv& m) { return Buffered(m).results.at(0); }

TEST(MetasrvFingerprintCompletenessTest, EveryFieldChangesTheFingerprint) {
  ExpectEachMutationChangesFingerprint<Metasrv>(
      Base(), Fp,
      {
          {"id_", [](Metasrv& m) { Seam::id(m) = NodeId{9}; }},
          {"up_", [](Metasrv& m) { Seam::up(m) = false; }},
          {"next_corr_", [](Metasrv& m) { ++Seam::next_corr(m); }},
          {"kv_", [](Metasrv& m) { m.mutable_kv().Put("k", "w"); }},
          {"procedures_", [](Metasrv& m) { m.Submit(CreateTableProcedure{}, sim::AtMs(5)); }},
          {"epochs_", [](Metasrv& m) { ++Seam::epochs(m)[kTable]; }},
          {"corr_owner_", [](Metasrv& m) { Seam::corr_owner(m)[8] = kOwner; }},
          {"inboxes_ (one more)", [](Metasrv& m) { Seam::inboxes(m)[ProcedureId{2}]; }},
          {"inboxes_ (a response)", [](Metasrv& m) { Seam::inboxes(m)[kOwner][9]; }},
          {"inboxes_ response.corr", [](Metasrv& m) { Buffered(m).corr = 5; }},
          {"inboxes_ response.results (one more)",
           [](Metasrv& m) { Buffered(m).results.push_back(RegionResult{}); }},
          {"inboxes_ response.results.region",
           [](Metasrv& m) { BufferedResult(m).region = RegionId::Of(kTable, RegionNumber{1}); }},
          {"inboxes_ response.results.code",
           [](Metasrv& m) { BufferedResult(m).code = ReplyCode::kRegionNotReady; }},
          {"inboxes_ response.results.message",
           [](Metasrv& m) { BufferedResult(m).message = "busy"; }},
          {"inboxes_ response.mailbox", [](Metasrv& m) { Buffered(m).mailbox = true; }},
          {"operating_regions_", [](Metasrv& m) { m.operating_regions().clear(); }},
          {"operating_regions_ owner",
           [](Metasrv& m) { m.operating_regions().at(kRegion) = ProcedureId{2}; }},
          {"pending_acks_", [](Metasrv& m) { Seam::pending_acks(m).clear(); }},
          {"next_resend_", [](Metasrv& m) { Seam::next_resend(m) = sim::AtMs(1001); }},
          {"recover_at_", [](Metasrv& m) { Seam::recover_at(m) = sim::AtMs(0); }},
          {"ddl_waiters_", [](Metasrv& m) { Seam::ddl_waiters(m).clear(); }},
          {"ddl_waiters_ frontend",
           [](Metasrv& m) { Seam::ddl_waiters(m).at(kOwner).frontend = NodeId{4}; }},
          {"ddl_waiters_ corr", [](Metasrv& m) { Seam::ddl_waiters(m).at(kOwner).corr = 5; }},
          {"ddl_waiters_ ddl", [](Metasrv& m) { Seam::ddl_waiters(m).at(kOwner).ddl = 2; }},
      });
}

// An entry moved from one container to the next must not hash like the original: each
// container is hashed with its size.
TEST(MetasrvFingerprintCompletenessTest, ContainersAreDelimited) {
  Metasrv a(NodeId{0}, {NodeId{1}}, {NodeId{3}});
  Metasrv b = a;
  Seam::epochs(a)[TableId{7}] = 1;
  Seam::corr_owner(b)[7] = ProcedureId{1};
  EXPECT_NE(Fp(a), Fp(b));
}

}  // namespace fingerprint_completeness_test
}  // namespace
}  // namespace repartsim::model
