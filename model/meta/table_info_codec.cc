// EncodeTableInfo / DecodeTableInfo (declared in meta_codec.h).
#include <nlohmann/json.hpp>
#include <optional>
#include <utility>

#include "model/meta/codec_memo.h"
#include "model/meta/meta_codec.h"
#include "sim/json_text.h"

namespace repartsim::model {
namespace {

using Json = nlohmann::json;

constexpr ColumnType kAllColumnTypes[] = {
    ColumnType::kBool,     ColumnType::kInt8,    ColumnType::kInt16,   ColumnType::kInt32,
    ColumnType::kInt64,    ColumnType::kUInt8,   ColumnType::kUInt16,  ColumnType::kUInt32,
    ColumnType::kUInt64,   ColumnType::kFloat32, ColumnType::kFloat64, ColumnType::kString,
    ColumnType::kTimestamp};

std::optional<ColumnType> ColumnTypeFromName(std::string_view name) {
  for (ColumnType t : kAllColumnTypes) {
    if (ColumnTypeName(t) == name) return t;
  }
  return std::nullopt;
}

sim::Error DecodeError(std::string_view bytes) {
  return sim::MakeError(sim::SourceLocation{"<kv>", 0, 0},
                        "malformed table info: " + std::string(bytes));
}

bool ReadIndices(const Json& j, std::vector<size_t>& out) {
  if (!j.is_array()) return false;
  for (const Json& v : j) {
    if (!v.is_number_unsigned()) return false;
    out.push_back(v.get<size_t>());
  }
  return true;
}

bool ReadSchema(const Json& j, TableSchema& schema) {
  if (!j.is_object() || !j.contains("name") || !j.contains("columns") ||
      !j.contains("primary_key") || !j.contains("time_index") || !j.contains("partition_columns") ||
      !j.contains("append_mode")) {
    return false;
  }
  if (!j["name"].is_string() || !j["columns"].is_array() || !j["time_index"].is_number_unsigned() ||
      !j["partition_columns"].is_array() || !j["append_mode"].is_boolean()) {
    return false;
  }
  schema.name = j["name"].get<std::string>();
  for (const Json& c : j["columns"]) {
    if (!c.is_object() || !c.contains("name") || !c.contains("type") || !c.contains("nullable") ||
        !c["name"].is_string() || !c["type"].is_string() || !c["nullable"].is_boolean()) {
      return false;
    }
    std::optional<ColumnType> type = ColumnTypeFromName(c["type"].get<std::string>());
    if (!type) return false;
    schema.columns.push_back(
        Column{c["name"].get<std::string>(), *type, c["nullable"].get<bool>()});
  }
  if (!ReadIndices(j["primary_key"], schema.primary_key)) return false;
  schema.time_index = j["time_index"].get<size_t>();
  for (const Json& p : j["partition_columns"]) {
    if (!p.is_string()) return false;
    schema.partition_columns.push_back(p.get<std::string>());
  }
  schema.append_mode = j["append_mode"].get<bool>();
  return true;
}

std::string EncodeTableInfoJson(const TableInfo& info) {
  Json columns = Json::array();
  for (const Column& c : info.schema.columns) {
    columns.push_back(Json{
        {"name", c.name}, {"type", std::string(ColumnTypeName(c.type))}, {"nullable", c.nullable}});
  }
  Json schema{{"name", info.schema.name},
              {"columns", std::move(columns)},
              {"primary_key", info.schema.primary_key},
              {"time_index", info.schema.time_index},
              {"partition_columns", info.schema.partition_columns},
              {"append_mode", info.schema.append_mode}};
  Json j{{"table_id", info.table_id.value}, {"name", info.name},
         {"schema", std::move(schema)},     {"partition_key_indices", info.partition_key_indices},
         {"engine", info.engine},           {"options", info.options}};
  return sim::JsonText(j);
}

}  // namespace

std::string EncodeTableInfo(const TableInfo& info) {
  return MemoizedEncode<TableInfo>(info, &EncodeTableInfoJson);
}

namespace {

sim::Result<TableInfo> DecodeTableInfoJson(std::string_view bytes) {
  Json j = Json::parse(bytes.begin(), bytes.end(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) return DecodeError(bytes);
  for (const char* key :
       {"table_id", "name", "schema", "partition_key_indices", "engine", "options"}) {
    if (!j.contains(key)) return DecodeError(bytes);
  }
  TableInfo info;
  if (!j["table_id"].is_number_unsigned() || !j["name"].is_string() || !j["engine"].is_string() ||
      !j["options"].is_object()) {
    return DecodeError(bytes);
  }
  info.table_id = TableId{j["table_id"].get<uint32_t>()};
  info.name = j["name"].get<std::string>();
  if (!ReadSchema(j["schema"], info.schema)) return DecodeError(bytes);
  if (!ReadIndices(j["partition_key_indices"], info.partition_key_indices))
    return DecodeError(bytes);
  info.engine = j["engine"].get<std::string>();
  for (const auto& [key, value] : j["options"].items()) {
    if (!value.is_string()) return DecodeError(bytes);
    info.options[key] = value.get<std::string>();
  }
  return info;
}

}  // namespace

sim::Result<TableInfo> DecodeTableInfo(std::string_view bytes) {
  return MemoizedDecode<TableInfo>(bytes, &DecodeTableInfoJson);
}

}  // namespace repartsim::model
