// AnyBody: one procedure body of any type, as a copyable value, and ProcedureEnv: the four
// things the runner itself asks of the environment a step runs in. They let the runner
// (procedure_manager.cc) be compiled once for every body type; ProcedureManager<Body, Env>
// wraps a typed Body and a typed Env into them. A copy of an AnyBody is a deep copy (a
// snapshot of a metasrv copies its procedures).
//
// Body concept (what AnyBody::Of<Body, Env> needs):
//   std::string_view type() const;  std::string state_name() const;  std::string Dump() const;
//   static sim::Result<Body> Load(std::string_view type, std::string_view dump);
//   Step Execute(Env&, const ProcedureView&);  Step Rollback(Env&, const ProcedureView&);
//   bool rollback_supported() const;  std::vector<LockKey> lock_keys() const;
//   void Fingerprint(sim::Hasher&) const;
// Env concept:
//   sim::SimTime Now() const;  bool CrashPoint(std::string_view site);
//   uint32_t Choose(std::string_view label, uint32_t option_count);
//   void TraceProcedure(ProcedureId, std::string_view what);
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "model/procedure/procedure.h"
#include "sim/assert.h"
#include "sim/fingerprint.h"
#include "sim/time.h"

namespace repartsim::model {

class ProcedureEnv {
 public:
  virtual sim::SimTime Now() const = 0;
  // Returns true iff the crash point `site` fires (the metasrv goes down).
  virtual bool CrashPoint(std::string_view site) = 0;
  virtual uint32_t Choose(std::string_view label, uint32_t option_count) = 0;
  virtual void TraceProcedure(ProcedureId id, std::string_view what) = 0;

 protected:
  ~ProcedureEnv() = default;
};

// A typed Env seen as a ProcedureEnv, for the duration of one runner call.
template <class Env>
class EnvRef final : public ProcedureEnv {
 public:
  explicit EnvRef(Env& env) : env_(env) {}
  sim::SimTime Now() const override { return env_.Now(); }
  bool CrashPoint(std::string_view site) override { return env_.CrashPoint(site); }
  uint32_t Choose(std::string_view label, uint32_t option_count) override {
    return env_.Choose(label, option_count);
  }
  void TraceProcedure(ProcedureId id, std::string_view what) override {
    env_.TraceProcedure(id, what);
  }
  Env& env() { return env_; }

 private:
  Env& env_;
};

class AnyBody {
 public:
  AnyBody() = default;
  // Wraps `body`, which steps with an Env; Execute/Rollback must then be given an EnvRef<Env>.
  template <class Body, class Env>
  static AnyBody Of(Body body) {
    AnyBody any;
    any.impl_ = std::make_unique<Model<Body, Env>>(std::move(body));
    return any;
  }

  AnyBody(const AnyBody& other) : impl_(other.impl_ ? other.impl_->Clone() : nullptr) {}
  AnyBody& operator=(const AnyBody& other) {
    if (this != &other) impl_ = other.impl_ ? other.impl_->Clone() : nullptr;
    return *this;
  }
  AnyBody(AnyBody&&) noexcept = default;
  AnyBody& operator=(AnyBody&&) noexcept = default;

  bool empty() const { return impl_ == nullptr; }
  std::string_view type() const { return Get().type(); }
  std::string state_name() const { return Get().state_name(); }
  std::string Dump() const { return Get().Dump(); }
  Step Execute(ProcedureEnv& env, const ProcedureView& view) { return Get().Execute(env, view); }
  Step Rollback(ProcedureEnv& env, const ProcedureView& view) { return Get().Rollback(env, view); }
  bool rollback_supported() const { return Get().rollback_supported(); }
  std::vector<LockKey> lock_keys() const { return Get().lock_keys(); }
  void Fingerprint(sim::Hasher& h) const { Get().Fingerprint(h); }

  // The held body iff it is a `Body`, else nullptr. (Named apart from the bodies' own As<T>,
  // such as MetaProcedure's, so that a call meant for the body does not compile here.)
  template <class Body>
  const Body* Held() const {
    const auto* holder = dynamic_cast<const Holder<Body>*>(impl_.get());
    return holder == nullptr ? nullptr : &holder->body;
  }

 private:
  struct Concept {
    virtual ~Concept() = default;
    virtual std::unique_ptr<Concept> Clone() const = 0;
    virtual std::string_view type() const = 0;
    virtual std::string state_name() const = 0;
    virtual std::string Dump() const = 0;
    virtual Step Execute(ProcedureEnv& env, const ProcedureView& view) = 0;
    virtual Step Rollback(ProcedureEnv& env, const ProcedureView& view) = 0;
    virtual bool rollback_supported() const = 0;
    virtual std::vector<LockKey> lock_keys() const = 0;
    virtual void Fingerprint(sim::Hasher& h) const = 0;
  };
  template <class Body>
  struct Holder : Concept {
    explicit Holder(Body b) : body(std::move(b)) {}
    Body body;
  };
  template <class Body, class Env>
  struct Model final : Holder<Body> {
    explicit Model(Body b) : Holder<Body>(std::move(b)) {}
    std::unique_ptr<Concept> Clone() const override { return std::make_unique<Model>(*this); }
    std::string_view type() const override { return this->body.type(); }
    std::string state_name() const override { return this->body.state_name(); }
    std::string Dump() const override { return this->body.Dump(); }
    Step Execute(ProcedureEnv& env, const ProcedureView& view) override {
      return this->body.Execute(static_cast<EnvRef<Env>&>(env).env(), view);
    }
    Step Rollback(ProcedureEnv& env, const ProcedureView& view) override {
      return this->body.Rollback(static_cast<EnvRef<Env>&>(env).env(), view);
    }
    bool rollback_supported() const override { return this->body.rollback_supported(); }
    std::vector<LockKey> lock_keys() const override { return this->body.lock_keys(); }
    void Fingerprint(sim::Hasher& h) const override { this->body.Fingerprint(h); }
  };

  const Concept& Get() const {
    REPARTSIM_ASSERT(impl_ != nullptr);
    return *impl_;
  }
  Concept& Get() {
    REPARTSIM_ASSERT(impl_ != nullptr);
    return *impl_;
  }

  std::unique_ptr<Concept> impl_;
};

}  // namespace repartsim::model
