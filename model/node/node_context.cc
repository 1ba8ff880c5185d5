#include "model/node/node_context.h"

#include <utility>

#include "model/node/message.h"

namespace repartsim::model {

NodeContext::NodeContext(NodeId self, sim::StepContext& step, const Protocol& protocol,
                         History& history)
    : self(self), step(step), protocol(protocol), history(history) {}

NodeContext::~NodeContext() = default;

void NodeContext::Send(NodeId to, MessageBody body) {
  outbox.push_back(Outgoing{to, Message{std::move(body)}});
}

}  // namespace repartsim::model
