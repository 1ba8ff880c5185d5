// Node ids, names and lookups of a Cluster: node 0 is the metasrv, nodes 1..D the datanodes,
// nodes D+1..D+F the frontends. cluster.cc holds the event loop.
#include <string>

#include "model/cluster/cluster.h"
#include "sim/assert.h"

namespace repartsim::model {

bool Cluster::IsDatanode(NodeId node) const {
  return node.value >= 1 && node.value <= config_.datanode_count;
}

bool Cluster::IsFrontend(NodeId node) const {
  return node.value > config_.datanode_count && node.value < node_count();
}

size_t Cluster::DatanodeIndex(NodeId node) const {
  REPARTSIM_ASSERT(IsDatanode(node));
  return node.value - 1;
}

const Datanode& Cluster::datanode(NodeId node) const { return datanodes_[DatanodeIndex(node)]; }
Datanode& Cluster::mutable_datanode(NodeId node) { return datanodes_[DatanodeIndex(node)]; }
Frontend& Cluster::mutable_frontend(NodeId node) {
  REPARTSIM_ASSERT(IsFrontend(node));
  return frontends_[node.value - 1 - config_.datanode_count];
}

std::string Cluster::NodeName(NodeId node) const {
  if (node.value == 0) return "metasrv";
  if (IsDatanode(node)) return "dn" + std::to_string(node.value);
  return "fe" + std::to_string(node.value - config_.datanode_count);
}

}  // namespace repartsim::model
