// What reading a report throws: the reader's own (json_io.h) and the
// tokenizer's (json_tokens.h), so that the tokenizer needs none of the reader.
#pragma once
#include <stdexcept>

namespace cudaleak::report {

class FormatError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
// Text that is not JSON at all (json_tokens.h), as opposed to JSON that is not
// a valid report.
class SyntaxError : public FormatError {
 public:
  using FormatError::FormatError;
};

}  // namespace cudaleak::report
