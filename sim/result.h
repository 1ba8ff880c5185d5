// User-input errors as values (docs/architecture.md, "Errors and exit codes").
// A Result<T> holds either a T or an Error carrying the SourceLocation of the bad input.
// Error::Format() renders "file:line:col: error: message", the form every front end prints
// before exiting with code 64. Lines and columns are 1-based; 0 means "unknown".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include "sim/assert.h"

namespace repartsim::sim {

struct SourceLocation {
  std::string file;
  uint32_t line = 0;
  uint32_t column = 0;
};

struct Error {
  SourceLocation location;
  std::string message;

  // "file:line:col: error: message"; omits line/column when they are 0.
  std::string Format() const;
};

// Returns an error value at `location` with `message`.
// The location of byte `offset` of `text` in `file`: 1-based line and column, a column per
// byte (a tab or a UTF-8 sequence byte counts one).
SourceLocation LocateOffset(std::string_view text, size_t offset, const std::string& file);

inline Error MakeError(SourceLocation location, std::string message) {
  return Error{std::move(location), std::move(message)};
}

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::move(value)) {}      // NOLINT: implicit by design
  Result(Error error) : state_(std::move(error)) {}  // NOLINT: implicit by design

  bool ok() const { return state_.index() == 0; }
  explicit operator bool() const { return ok(); }

  // REQUIRES: ok().
  const T& value() const& {
    REPARTSIM_ASSERT(ok());
    return std::get<0>(state_);
  }
  T& value() & {
    REPARTSIM_ASSERT(ok());
    return std::get<0>(state_);
  }
  T&& value() && {
    REPARTSIM_ASSERT(ok());
    return std::get<0>(std::move(state_));
  }
  // REQUIRES: !ok().
  const Error& error() const {
    REPARTSIM_ASSERT(!ok());
    return std::get<1>(state_);
  }

 private:
  std::variant<T, Error> state_;
};

// Result of an operation that produces no value.
struct Ok {};
using Status = Result<Ok>;

}  // namespace repartsim::sim
