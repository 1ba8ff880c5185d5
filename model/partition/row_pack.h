// A compact byte form of rows, for rows a run keeps only to report them (the checker packs them,
// run::PackWriteRows): a row of a short string and three small numbers takes about 12 bytes instead
// of about 220 as Values. Exact: UnpackRows gives back rows equal (operator==) to the packed ones,
// bit for bit (doubles by their bit pattern, NaN payloads included). Form: varint row count; per
// row a varint value count, then per value its ValueType byte and its payload (bool: 1 byte; int
// and timestamp: zigzag varint; uint: varint; double: its 8 bits little-endian; string: varint
// length and the bytes; NULL: nothing).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "model/partition/schema.h"

namespace repartsim::model {

// Appends the packed form of `rows` to `out`.
void PackRows(const std::vector<Row>& rows, std::string& out);
// The rows packed at the start of `in`; `*used` (if given) is set to the bytes they took.
// REQUIRES: `in` starts with PackRows' output (an internal invariant: it is never user input).
std::vector<Row> UnpackRows(std::string_view in, size_t* used = nullptr);

}  // namespace repartsim::model
