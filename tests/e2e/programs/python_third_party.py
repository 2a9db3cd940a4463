# A program whose device memory is allocated inside a third-party package
# (tests/e2e/programs/third_party/site-packages/kvstore): every place that
# names a leak's line (the text, --by function, suppressions, SARIF) must
# name the program's serve_request, not the package's code. Lines a test
# names are marked with a comment.
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "third_party", "site-packages"))
import kvstore  # noqa: E402

cache = kvstore.Cache()


def serve_request(tokens):
    return cache.update(tokens << 10)  # LINE:serve


for request in range(3):
    serve_request(request + 1)
