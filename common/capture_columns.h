// The crash capture's rows, column by column: written by the signal handler
// (interpose/runtime/crash_capture.cpp) and read outside the dead process
// (report/capture/crash_report.cpp) from this one list. A capture names its
// columns ("columns": {"resources": ["kind", ...], ...}), so the reader takes
// each field by its name: a capture of an older version lacks the newer
// columns (read as their defaults), one of a newer version may add columns
// this reader skips. Version 1 wrote no names: its rows are the first
// columns of kResource (12, or 13 with "scope"), kNote, kPythonFrame and
// kMark, in order.
#pragma once
#include <array>
#include <cstddef>
#include <string_view>

namespace cudaleak::capture_columns {

inline constexpr int kFormatVersion = 2;

enum class Resource {
  Kind,
  Api,
  Handle,
  Bytes,
  Sequence,
  TimeNs,
  Context,
  Stream,
  Stack,
  Thread,
  Device,
  ReleasedBy,
  Scope,
  N
};
inline constexpr std::array<std::string_view, size_t(Resource::N)> kResource = {"kind",    "api",      "handle",
                                                                                "bytes",   "sequence", "time_ns",
                                                                                "context", "stream",   "stack",
                                                                                "thread",  "device",   "released_by",
                                                                                "scope"};

enum class Note { Type, Hook, Handle, Result, Stack, Count, N };
inline constexpr std::array<std::string_view, size_t(Note::N)> kNote = {"type",   "hook",  "handle",
                                                                        "result", "stack", "count"};

enum class PythonFrame { Id, File, Function, Line, N };
inline constexpr std::array<std::string_view, size_t(PythonFrame::N)> kPythonFrame = {"id", "file", "function", "line"};

enum class Mark { Type, Name, TimeNs, N };
inline constexpr std::array<std::string_view, size_t(Mark::N)> kMark = {"type", "name", "time_ns"};

struct Section {
  std::string_view name;  // the capture's member holding the rows
  const std::string_view* columns;
  size_t count;
  size_t required;  // the columns every version wrote: a row without them is not a capture's
};
inline constexpr Section kResources{"resources", kResource.data(), kResource.size(), size_t(Resource::Scope)};
inline constexpr Section kNotes{"notes", kNote.data(), kNote.size(), kNote.size()};
inline constexpr Section kPythonFrames{"python_frames", kPythonFrame.data(), kPythonFrame.size(), kPythonFrame.size()};
inline constexpr Section kMarks{"marks", kMark.data(), kMark.size(), kMark.size()};
inline constexpr const Section* kSections[] = {&kResources, &kNotes, &kPythonFrames, &kMarks};

}  // namespace cudaleak::capture_columns
