#include "checker/campaign/json_duplicates.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

namespace repartsim::campaign {

namespace {

// One frame per open object or array; stops the parse at the first repeated key.
class KeyTracker final : public nlohmann::json_sax<nlohmann::json> {
 public:
  bool null() override { return ElementDone(); }
  bool boolean(bool) override { return ElementDone(); }
  bool number_integer(number_integer_t) override { return ElementDone(); }
  bool number_unsigned(number_unsigned_t) override { return ElementDone(); }
  bool number_float(number_float_t, const string_t&) override { return ElementDone(); }
  bool string(string_t&) override { return ElementDone(); }
  bool binary(binary_t&) override { return ElementDone(); }
  bool start_object(std::size_t) override { return Open(false); }
  bool start_array(std::size_t) override { return Open(true); }
  bool end_object() override { return Close(); }
  bool end_array() override { return Close(); }
  bool key(string_t& key) override {
    Frame& frame = frames_.back();
    frame.key = key;
    if (frame.Insert()) return true;
    duplicate_ = std::vector<std::string>();
    for (const Frame& f : frames_) duplicate_->push_back(f.array ? std::to_string(f.index) : f.key);
    return false;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    return false;
  }

  const std::optional<std::vector<std::string>>& duplicate() const { return duplicate_; }

 private:
  struct Frame {
    bool array = false;
    uint64_t index = 0;  // of the element being read, in an array
    // The keys read so far, in an object: a report's objects have a few dozen, searched in a
    // list; past kListKeysMax, a set.
    std::vector<std::string> list;
    std::set<std::string> set;
    std::string key;  // of the member being read, in an object

    // Adds `key`; false iff the object had it already.
    bool Insert() {
      static constexpr size_t kListKeysMax = 32;
      if (!set.empty()) return set.insert(key).second;
      if (std::find(list.begin(), list.end(), key) != list.end()) return false;
      list.push_back(key);
      if (list.size() > kListKeysMax) {
        set.insert(list.begin(), list.end());
        list.clear();
      }
      return true;
    }
  };

  bool Open(bool array) {
    frames_.emplace_back();
    frames_.back().array = array;
    return true;
  }
  bool Close() {
    frames_.pop_back();
    return ElementDone();
  }
  bool ElementDone() {
    if (!frames_.empty() && frames_.back().array) ++frames_.back().index;
    return true;
  }

  std::vector<Frame> frames_;
  std::optional<std::vector<std::string>> duplicate_;
};

}  // namespace

std::optional<std::vector<std::string>> FindDuplicateJsonKey(const std::string& text) {
  KeyTracker tracker;
  nlohmann::json::sax_parse(text, &tracker);
  return tracker.duplicate();
}

}  // namespace repartsim::campaign
