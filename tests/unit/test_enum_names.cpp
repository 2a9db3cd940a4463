#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>
#include <set>
#include <string>

#include "common/enum_names.h"
#include "report/capture/crash_report.h"
#include "report/model/json_io.h"

using namespace cudaleak;
using namespace cudaleak::report;

namespace {

// Every value from `first` to `last` has a name of its own that reads back to
// it; a name of no value is refused and leaves the target as it was.
template <class E>
void round_trip(E first, E last) {
  std::set<std::string_view> names;
  for (int i = int(first); i <= int(last); ++i) {
    E value = static_cast<E>(i), back = first == value ? last : first;
    std::string_view name = name_of(value);
    INFO(noun_of(value) << " " << i << " \"" << name << "\"");
    CHECK(!name.empty());
    CHECK(names.insert(name).second);
    CHECK(text_of(value) == std::string(name));
    CHECK(parse_name(name, back));
    CHECK(back == value);
  }
  for (std::string_view unknown : {"no_such_name", "", "New", "exit "}) {
    E untouched = last;
    INFO(noun_of(first) << " \"" << unknown << "\"");
    CHECK_FALSE(parse_name(unknown, untouched));
    CHECK(untouched == last);
  }
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// `text` with its first `from` replaced by `to`.
std::string with(std::string text, const std::string& from, const std::string& to) {
  size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

Report report_with_every_vocabulary() {
  Report r;
  r.reason = Reason::Exit;
  LeakGroup g;
  g.kind = Kind::Event;
  g.count = 1;
  g.baseline = BaselineState::Grown;
  r.leaks.push_back(g);
  r.notes.push_back(Note{NoteType::DeviceHeapExhausted, "malloc", 0x10, 0, 4, {}});
  r.timeline.marks.push_back(TimelineMark{5, MarkType::Limit, "cudaLimitStackSize = 4.0 KiB", 0});
  return r;
}

}  // namespace

TEST_CASE("enum names: every value has one name and reads back to itself", "[model][enum]") {
  round_trip(Kind::Device, Kind(kKindCount - 1));
  round_trip(Reason::Exit, Reason::Merged);
  round_trip(Cause::RequestTooLarge, Cause::ContextReservation);
  round_trip(NoteType::ContextMismatch, NoteType::UnknownRelease);
  round_trip(MarkType::Checkpoint, MarkType::Limit);
  round_trip(Change::New, Change::Same);
  round_trip(ViewMoment::Exit, ViewMoment::Snapshot);
  round_trip(BaselineState::New, BaselineState::Known);
}

TEST_CASE("enum names: the names the report format documents", "[model][enum]") {
  // docs/report-format.md and the HTML page's scripts know these spellings.
  CHECK(name_of(NoteType::UnknownRelease) == "unknown_release");
  CHECK(name_of(NoteType::DeviceHeapExhausted) == "device_heap_exhausted");
  CHECK(name_of(NoteType::ContextMismatch) == "context_mismatch");
  CHECK(name_of(NoteType::DeviceMismatch) == "device_mismatch");
  CHECK(name_of(NoteType::ContextUnseen) == "context_unseen");
  CHECK(name_of(MarkType::Checkpoint) == "checkpoint");
  CHECK(name_of(MarkType::Report) == "report");
  CHECK(name_of(MarkType::Snapshot) == "snapshot");
  CHECK(name_of(MarkType::Limit) == "limit");
  CHECK(name_of(BaselineState::New) == "new");
  CHECK(name_of(BaselineState::Grown) == "grown");
  CHECK(name_of(BaselineState::Known) == "known");
  CHECK(name_of(Change::New) == "new");
  CHECK(name_of(Change::Gone) == "gone");
  CHECK(name_of(Change::Grown) == "grown");
  CHECK(name_of(Change::Shrunk) == "shrunk");
  CHECK(name_of(Change::Same) == "same");
  CHECK(name_of(ViewMoment::Exit) == "exit");
  CHECK(name_of(ViewMoment::Oom) == "oom");
  CHECK(name_of(ViewMoment::Snapshot) == "snapshot");
}

TEST_CASE("enum names: no baseline has no name, and the reader takes none for it", "[model][enum]") {
  CHECK(name_of(BaselineState::None).empty());
  BaselineState state = BaselineState::Known;
  CHECK_FALSE(parse_name("", state));
  CHECK_FALSE(parse_name("none", state));
  CHECK(state == BaselineState::Known);
}

TEST_CASE("enum names: a report's notes, marks and baseline states are written by name and read back",
          "[model][enum][json]") {
  Report r = report_with_every_vocabulary();
  std::string text = to_json(r);
  CHECK(text.find("\"type\": \"device_heap_exhausted\"") != std::string::npos);
  CHECK(text.find("\"type\": \"limit\"") != std::string::npos);
  CHECK(text.find("\"baseline\": \"grown\"") != std::string::npos);
  Report back = from_json(text);
  CHECK(back.notes == r.notes);
  CHECK(back.timeline.marks == r.timeline.marks);
  CHECK(back.leaks.at(0).baseline == BaselineState::Grown);
  // Without a baseline the member is left out, as when it was an empty string.
  r.leaks[0].baseline = BaselineState::None;
  text = to_json(r);
  CHECK(text.find("\"baseline\"") == std::string::npos);
  CHECK(from_json(text).leaks.at(0).baseline == BaselineState::None);
}

TEST_CASE("enum names: the report reader refuses a name of no value, with its path", "[model][enum][json]") {
  Report r;
  Diagnosis d;
  d.cause = Cause::Fragmentation;
  OomEvent e;
  e.diagnosis.push_back(d);
  r.oom_events.push_back(e);
  const std::string oom = to_json(r);
  CHECK(from_json(oom).oom_events.at(0).diagnosis.at(0).cause == Cause::Fragmentation);
  CHECK_THROWS_WITH(from_json(with(oom, "\"fragmentation\"", "\"fragmented\"")),
                    Catch::Contains("$.oom_events[0].diagnosis[0].cause: unknown cause \"fragmented\""));

  const std::string text = to_json(report_with_every_vocabulary());
  CHECK_THROWS_WITH(from_json(with(text, "\"device_heap_exhausted\"", "\"heap_exhausted\"")),
                    Catch::Contains("$.notes[0].type: unknown note type \"heap_exhausted\""));
  CHECK_THROWS_WITH(from_json(with(text, "\"limit\"", "\"limits\"")),
                    Catch::Contains("$.timeline.marks[0].type: unknown mark type \"limits\""));
  CHECK_THROWS_WITH(from_json(with(text, "\"baseline\": \"grown\"", "\"baseline\": \"old\"")),
                    Catch::Contains("$.leaks[0].baseline: unknown baseline state \"old\""));
  CHECK_THROWS_WITH(from_json(with(text, "\"baseline\": \"grown\"", "\"baseline\": \"\"")),
                    Catch::Contains("$.leaks[0].baseline: unknown baseline state \"\""));
  CHECK_THROWS_WITH(from_json(with(text, "\"baseline\": \"grown\"", "\"baseline\": 1")),
                    Catch::Contains("$.leaks[0].baseline: expected a baseline state name, got 1"));
  // A mark says what it marks: one without a type is refused, not taken for a checkpoint.
  CHECK_THROWS_WITH(from_json(with(text, "\"type\": \"limit\"", "\"kind\": \"limit\"")),
                    Catch::Contains("$.timeline.marks[0].type: is missing"));
}

TEST_CASE("enum names: a crash capture's note and mark types are read by name, unknown ones refused",
          "[model][enum][capture]") {
  const std::string text = read_file(std::string(CUDALEAK_FUZZ_CORPUS) + "/crash_capture/crash_with_timeline.json");
  const std::string mark = "[\"checkpoint\",\"allocated\",951794]";
  REQUIRE(text.find(mark) != std::string::npos);
  auto capture = capture::parse_crash_capture(text);
  REQUIRE(capture.timeline.marks.size() == 1);
  CHECK(capture.timeline.marks[0].type == MarkType::Checkpoint);
  CHECK_THROWS_WITH(capture::parse_crash_capture(with(text, mark, "[\"checkpoints\",\"allocated\",951794]")),
                    Catch::Contains("$.marks[0][0]: unknown mark type \"checkpoints\""));
  const std::string notes = "\"notes\":[]";
  REQUIRE(text.find(notes) != std::string::npos);
  auto noted = capture::parse_crash_capture(
      with(text, notes, "\"notes\":[[\"unknown_release\",\"cuMemFree_v2\",4660,1,1,3]]"));
  REQUIRE(noted.snapshot.notes.size() == 1);
  CHECK(noted.snapshot.notes[0].type == NoteType::UnknownRelease);
  CHECK_THROWS_WITH(capture::parse_crash_capture(
                        with(text, notes, "\"notes\":[[\"released\",\"cuMemFree_v2\",4660,1,1,3]]")),
                    Catch::Contains("$.notes[0][0]: unknown note type \"released\""));
}
