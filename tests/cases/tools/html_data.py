# The data an HTML report carries, as a browser's parser cuts it out: the
# text from the end of <script id="cudaleak-data" type="application/json"> to
# the first </script> after it, written to OUT unchanged (a case then reads it
# with report_expr.py). Exits 1 when the page has no such element.
# Usage: html_data.py PAGE OUT
import sys

OPEN = '<script id="cudaleak-data" type="application/json">'
if len(sys.argv) != 3:
    sys.exit("usage: html_data.py PAGE OUT")
with open(sys.argv[1], encoding="utf-8") as f:
    page = f.read()
start = page.find(OPEN)
end = page.find("</script>", start + len(OPEN)) if start >= 0 else -1
if end < 0:
    sys.exit("html_data.py: %s has no complete cudaleak-data element" % sys.argv[1])
with open(sys.argv[2], "w", encoding="utf-8") as f:
    f.write(page[start + len(OPEN):end])
