// Node lifecycle contract of the toy system's simulated processes (the engine itself does not
// use it; the repartition model's nodes have their own Crash/Restart with the arguments their
// durable state needs).
// Crash(): the node stops; its volatile state is lost and the model must also call
// Network::DropNode so in-flight messages to/from it vanish. Restart(): the node comes back
// with volatile state rebuilt only from its durable state. Value-type models implement the
// same members without virtual dispatch (checked by the NodeLike concept); the virtual
// NodeLifecycle base is for models that prefer dynamic dispatch.
#pragma once

#include <concepts>
#include <cstdint>

namespace repartsim::demo {

enum class NodeStatus : uint8_t { kUp, kDown };

constexpr const char* ToString(NodeStatus status) {
  return status == NodeStatus::kUp ? "up" : "down";
}

class NodeLifecycle {
 public:
  virtual ~NodeLifecycle() = default;
  // REQUIRES: status() == kUp. Afterwards status() == kDown and volatile state is reset.
  virtual void Crash() = 0;
  // REQUIRES: status() == kDown. Afterwards status() == kUp, recovered from durable state.
  virtual void Restart() = 0;
  virtual NodeStatus status() const = 0;
};

template <class T>
concept NodeLike = requires(T& node, const T& cnode) {
  node.Crash();
  node.Restart();
  { cnode.status() } -> std::same_as<NodeStatus>;
};

}  // namespace repartsim::demo
