// Function names as a text report prints them. A C++ name of a template
// instance can run to thousands of characters (PyTorch's c10d collectives:
// lambdas inside template arguments inside parameter lists); past a length
// a reader can take in, its template arguments and parameter lists are
// elided to "<...>" and "(...)", which leaves the scope and the function
// named. The JSON keeps every name whole, and so does --full-stacks.
#pragma once
#include <string>
#include <string_view>

namespace cudaleak::report {

inline constexpr size_t kReadableNameLength = 160;

// `name` itself when at most `limit` characters long; otherwise with the
// contents of the template argument lists and parameter lists that follow a
// name replaced by "..."; the whole name where its brackets do not balance.
std::string readable_function_name(std::string_view name, size_t limit = kReadableNameLength);

}  // namespace cudaleak::report
