#include "model/cluster/held_messages.h"

#include <algorithm>

#include "sim/assert.h"

namespace repartsim::model {

const HeldMessage* HeldMessages::LineHead(NodeId from, NodeId to) const {
  auto head = std::find_if(held_.rbegin(), held_.rend(), [&](const HeldMessage& m) {
    return m.head_of_line && m.from == from && m.out.to == to;
  });
  return head == held_.rend() ? nullptr : &*head;
}

bool HeldMessages::ReplyHeld(NodeId from, NodeId to) const {
  return std::any_of(held_.begin(), held_.end(), [&](const HeldMessage& m) {
    return m.from == from && m.out.to == to &&
           std::holds_alternative<HeartbeatReply>(m.out.message.body);
  });
}

std::optional<HeldMessage> HeldMessages::TakeReorderPartner(size_t rule) {
  REPARTSIM_ASSERT(rule != HeldMessage::kNoRule);
  auto held = std::find_if(held_.begin(), held_.end(), [&](const HeldMessage& m) {
    return m.until_state.empty() && !m.release_at && m.rule == rule;
  });
  if (held == held_.end()) return std::nullopt;
  HeldMessage first = std::move(*held);
  held_.erase(held);
  return first;
}

std::vector<size_t> HeldMessages::ReleaseBatch(size_t index) const {
  REPARTSIM_ASSERT(index < held_.size() && held_[index].release_at.has_value());
  const HeldMessage& first = held_[index];
  std::vector<size_t> batch = {index};
  if (!first.head_of_line) return batch;
  // The line behind a held stream message moves with it.
  for (size_t i = index + 1; i < held_.size(); ++i) {
    const HeldMessage& m = held_[i];
    if (m.head_of_line && m.from == first.from && m.out.to == first.out.to &&
        m.release_at == first.release_at) {
      batch.push_back(i);
    }
  }
  return batch;
}

std::vector<size_t> HeldMessages::PassState(const std::string& state, sim::SimTime now) {
  REPARTSIM_ASSERT(!state.empty());
  std::vector<size_t> release;
  for (size_t i = 0; i < held_.size(); ++i) {
    HeldMessage& m = held_[i];
    if (m.until_state != state) continue;
    m.until_state.clear();
    if (m.release_delay.ms > 0) {
      m.release_at = now + m.release_delay;  // released by the cluster's release event
    } else {
      release.push_back(i);
    }
  }
  return release;
}

std::vector<size_t> HeldMessages::All() const {
  std::vector<size_t> all(held_.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = i;
  return all;
}

std::vector<HeldMessage> HeldMessages::Take(std::vector<size_t> indices) {
  std::sort(indices.begin(), indices.end());
  REPARTSIM_ASSERT(indices.empty() || indices.back() < held_.size());
  std::vector<HeldMessage> batch;
  for (size_t i : indices) batch.push_back(std::move(held_[i]));
  for (auto it = indices.rbegin(); it != indices.rend(); ++it) {
    held_.erase(held_.begin() + static_cast<std::ptrdiff_t>(*it));
  }
  return batch;
}

void HeldMessages::Hash(sim::Hasher& h) const {
  h.Add(static_cast<uint64_t>(held_.size()));
  for (const HeldMessage& m : held_) {
    h.Add(m.from.value).Add(m.out.to.value).Add(m.until_state).Add(static_cast<uint64_t>(m.rule));
    h.Add(m.release_delay.ms).Add(m.release_at ? m.release_at->ms : int64_t{-1});
    h.Add(m.head_of_line);
    HashMessage(h, m.out.message);
  }
}

}  // namespace repartsim::model
