#include <cstdio>

#include "checker/console/session_impl.h"
#include "checker/run/cluster_setup.h"
#include "model/sql/lexer.h"
#include "model/sql/parser.h"
#include "sim/assert.h"

namespace repartsim::console {

namespace {

// Statements GreptimeDB runs that the console does not: refused as Unsupported, naming them.
constexpr std::string_view kKnownUnsupported[] = {
    "copy", "delete", "desc",     "describe", "drop", "explain", "kill",
    "set",  "tql",    "truncate", "update",   "use",  "with",
};
// The statements the console runs, for the refusal of the others.
constexpr const char* kConsoleStatements =
    "the console runs CREATE TABLE, INSERT, SELECT, ALTER TABLE, SHOW CREATE TABLE and ADMIN";

// `loc` (in a text that starts at `at`) in the text's source.
sim::SourceLocation InSource(const sim::SourceLocation& loc, const sim::SourceLocation& at) {
  sim::SourceLocation out = at;
  if (loc.line == 0) return out;
  out.line = at.line + loc.line - 1;
  out.column = loc.line == 1 ? at.column + loc.column - 1 : loc.column;
  return out;
}

StatementResult Refused(Answer answer, const sim::SourceLocation& where, std::string detail) {
  StatementResult r;
  r.answer = std::move(answer);
  r.refused = true;
  r.location = where;
  r.detail = std::move(detail);
  return r;
}

std::string Upper(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

Session::Impl::Impl(const SessionConfig& config, const scenario::Scenario& s,
                    model::Protocol protocol)
    : config_(config),
      scenario_(s),
      protocol_(protocol),
      cluster_(run::ClusterConfigOf(s, s.faults), protocol),
      plan_(run::BuildCrashPlan(s.faults)),
      chooser_(config.seed),
      sim_(cluster_, chooser_, trace_, plan_, stats_,
           sim::RunOptions{sim::DriverKind::kTimed, UINT64_MAX, INT64_MAX, config.seed}),
      down_(cluster_.node_count(), false) {
  trace_.KeepLines(config.keep_trace);
  trace_.WriteTo(config.trace_out);
}

void Session::Impl::Schedule(model::ScheduledOp op) {
  cluster_.Schedule(sim_.now(), std::move(op));
}

bool Session::Impl::StepOnce() {
  sim::AssertContext& assert_context = sim::CurrentAssertContext();
  assert_context.seed = config_.seed;
  assert_context.in_run = true;
  const bool stepped = sim_.Step();
  assert_context.in_run = false;
  for (uint32_t n = 0; n < cluster_.node_count(); ++n) {
    const bool down = cluster_.network().IsDown(n);
    if (down && !down_[n]) {
      cluster_.Schedule(sim_.now() + sim::Ms(scenario_.faults.restart_after_ms),
                        model::RestartNodeOp{model::NodeId{n}});
    }
    down_[n] = down;
  }
  return stepped;
}

bool Session::Impl::RunScheduledOps() {
  const uint64_t due = cluster_.ops_taken() + cluster_.scheduled_ops();
  return RunUntil([&] { return cluster_.ops_taken() >= due; });
}

const model::TableId* Session::Impl::FindTable(const std::string& name) const {
  auto it = tables_.find(name);
  return it == tables_.end() ? nullptr : &it->second;
}

std::optional<StatementResult> Session::Impl::Run(std::string_view text,
                                                  const sim::SourceLocation& at) {
  auto tokens = model::sql::Tokenize(text, at.file);
  if (!tokens.ok()) {
    return Refused(Answer::Error(StatusCode::kInvalidSyntax,
                                 "Invalid SQL syntax: sql parser error: " + tokens.error().message),
                   InSource(tokens.error().location, at), tokens.error().message);
  }
  const std::vector<model::sql::Token>& t = tokens.value();
  size_t first = 0;
  while (t[first].IsSymbol(";")) ++first;
  if (t[first].kind == model::sql::TokenKind::kEnd) return std::nullopt;
  const model::sql::Token& head = t[first];
  const sim::SourceLocation where = InSource({at.file, head.line, head.column}, at);
  for (std::string_view keyword : kKnownUnsupported) {
    if (!head.IsKeyword(keyword)) continue;
    const std::string message =
        "Not supported: " + Upper(keyword) + " (" + kConsoleStatements + ")";
    return Refused(Answer::Error(StatusCode::kUnsupported, message), where, message);
  }
  if (head.IsKeyword("show")) return Show(t, first, at);
  const bool runs = head.IsKeyword("create") || head.IsKeyword("alter") ||
                    head.IsKeyword("insert") || head.IsKeyword("select") || head.IsKeyword("admin");
  if (!runs) {
    const std::string message = "SQL statement is not supported, keyword: " + head.text;
    return Refused(Answer::Error(StatusCode::kUnsupported, message), where, message);
  }
  auto statements = model::sql::ParseStatements(text, at.file);
  if (!statements.ok()) {
    const sim::Error& e = statements.error();
    return Refused(Answer::Error(StatusCode::kInvalidSyntax,
                                 "Invalid SQL syntax: sql parser error: " + e.message),
                   InSource(e.location, at), e.message);
  }
  if (statements.value().size() != 1) {
    const std::string message = "one statement at a time";
    return Refused(Answer::Error(StatusCode::kInvalidSyntax, "Invalid SQL syntax: " + message),
                   where, message);
  }
  StatementResult result;
  result.answer = Execute(statements.value()[0]);
  result.location = where;
  return result;
}

namespace {

bool IsName(const model::sql::Token& token) {
  return token.kind == model::sql::TokenKind::kIdent ||
         token.kind == model::sql::TokenKind::kQuotedIdent;
}

}  // namespace

StatementResult Session::Impl::Show(const std::vector<model::sql::Token>& t, size_t first,
                                    const sim::SourceLocation& at) {
  size_t i = first + 1;
  const auto location = [&](size_t index) {
    return InSource({at.file, t[index].line, t[index].column}, at);
  };
  if (!t[i].IsKeyword("create") || !t[i + 1].IsKeyword("table")) {
    const std::string message =
        "Not supported: SHOW " + t[i].Describe() + " (the console shows CREATE TABLE)";
    return Refused(Answer::Error(StatusCode::kUnsupported, message), location(first), message);
  }
  i += 2;
  std::vector<std::string> parts;
  while (true) {
    if (!IsName(t[i]) || parts.size() == 3) {
      const std::string message = "Expected: a table name, found: " + t[i].Describe();
      return Refused(Answer::Error(StatusCode::kInvalidSyntax,
                                   "Invalid SQL syntax: sql parser error: " + message),
                     location(i), message);
    }
    parts.push_back(t[i++].text);
    if (!t[i].IsSymbol(".")) break;
    ++i;
  }
  while (t[i].IsSymbol(";")) ++i;
  if (t[i].kind != model::sql::TokenKind::kEnd) {
    const std::string message = "Expected: end of statement, found: " + t[i].Describe();
    return Refused(Answer::Error(StatusCode::kInvalidSyntax,
                                 "Invalid SQL syntax: sql parser error: " + message),
                   location(i), message);
  }
  // A name in greptime.public is the table itself; any other qualified name names no table.
  const bool in_model = parts.size() == 1 ||
                        (parts.size() == 2 && model::sql::EqualsIgnoreCase(parts[0], "public")) ||
                        (parts.size() == 3 && model::sql::EqualsIgnoreCase(parts[0], "greptime") &&
                         model::sql::EqualsIgnoreCase(parts[1], "public"));
  std::string name = parts.back();
  if (!in_model) {
    name.clear();
    for (const std::string& part : parts) name += (name.empty() ? "" : ".") + part;
  }
  StatementResult result;
  result.answer = ShowCreateTable(name);
  result.location = location(first);
  return result;
}

std::string CellText(const model::Value& value) {
  switch (value.type()) {
    case model::ValueType::kNull:
      return "";
    case model::ValueType::kString:
      return value.as_string();
    case model::ValueType::kDouble: {
      std::string text = value.ToSql();
      if (text.find_first_of(".eEna") == std::string::npos) text += ".0";
      return text;
    }
    case model::ValueType::kTimestamp: {
      // Days since 1970-01-01 to a civil date (Howard Hinnant's days_from_civil inverse).
      const int64_t ms = value.as_timestamp_ms();
      const int64_t day_ms = 86'400'000;
      int64_t days = ms >= 0 ? ms / day_ms : -((-ms + day_ms - 1) / day_ms);
      const int64_t in_day = ms - days * day_ms;
      days += 719468;
      const int64_t era = (days >= 0 ? days : days - 146096) / 146097;
      const int64_t doe = days - era * 146097;
      const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
      const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
      const int64_t mp = (5 * doy + 2) / 153;
      const int64_t d = doy - (153 * mp + 2) / 5 + 1;
      const int64_t m = mp < 10 ? mp + 3 : mp - 9;
      const int64_t y = yoe + era * 400 + (m <= 2 ? 1 : 0);
      char buf[64];
      std::snprintf(buf, sizeof buf, "%04lld-%02lld-%02lldT%02lld:%02lld:%02lld",
                    static_cast<long long>(y), static_cast<long long>(m), static_cast<long long>(d),
                    static_cast<long long>(in_day / 3'600'000),
                    static_cast<long long>(in_day / 60'000 % 60),
                    static_cast<long long>(in_day / 1000 % 60));
      std::string text = buf;
      if (in_day % 1000 != 0) {
        std::snprintf(buf, sizeof buf, ".%03lld", static_cast<long long>(in_day % 1000));
        text += buf;
      }
      return text;
    }
    default:
      return value.ToSql();
  }
}

StatusCode CodeOfModelError(std::string_view message, StatusCode fallback) {
  struct Form {
    std::string_view text;
    bool prefix;  // else anywhere in the message
    StatusCode code;
  };
  static constexpr Form kForms[] = {
      {"Not supported", true, StatusCode::kUnsupported},
      {"Table not found", true, StatusCode::kTableNotFound},
      {"Invalid arguments", true, StatusCode::kInvalidArguments},
      {"Invalid partition", true, StatusCode::kInvalidArguments},
      {"Checkpoint `", true, StatusCode::kInvalidArguments},
      {"Cannot find column", true, StatusCode::kInvalidArguments},
      {"Duplicate ", true, StatusCode::kInvalidArguments},
      {"deadline exceeded", true, StatusCode::kDeadlineExceeded},
      {" not found", false, StatusCode::kRegionNotFound},
      {" state, expect: ", false, StatusCode::kRegionNotReady},
      {"rejecting write requests", false, StatusCode::kStorageUnavailable},
      {"unavailable", false, StatusCode::kIllegalState},
  };
  for (const Form& form : kForms) {
    const size_t at = message.find(form.text);
    if (at == std::string_view::npos || (form.prefix && at != 0)) continue;
    return form.code;
  }
  return fallback;
}

// ---- Session ------------------------------------------------------------------------------

sim::Result<std::unique_ptr<Session>> Session::Start(const SessionConfig& config) {
  scenario::Scenario defaults;
  defaults.profile = "greptime";
  const scenario::Scenario& s = config.scenario != nullptr ? *config.scenario : defaults;
  run::RunConfig run_config;
  run_config.profile = config.profile;
  run_config.rules = config.rules;
  auto protocol = run::BuildProtocol(s, run_config);
  if (!protocol.ok()) return protocol.error();
  return std::unique_ptr<Session>(
      new Session(std::make_unique<Impl>(config, s, std::move(protocol).value())));
}

Session::Session(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Session::~Session() = default;

std::optional<StatementResult> Session::Run(std::string_view text, const sim::SourceLocation& at) {
  return impl_->Run(text, at);
}

sim::RunSummary Session::Summary() const { return impl_->sim_.CurrentResult().summary; }
int64_t Session::now_ms() const { return impl_->sim_.now().ms; }
const std::vector<std::string>& Session::trace_lines() const { return impl_->trace_.lines(); }

std::string Session::profile() const {
  const std::string overrides = impl_->protocol_.OverridesText();
  return std::string(impl_->protocol_.base_name()) +
         (overrides.empty() ? "" : " (" + overrides + ")");
}

}  // namespace repartsim::console
