#!/bin/sh
# Rebuilds d3-flamegraph.min.js and d3-flamegraph.css, the flame graph library
# the HTML report embeds: d3-flame-graph and the d3 modules it uses, bundled
# into one minified script (a global `d3fg` holding `flamegraph` and `select`)
# whose header carries every bundled package's license. Needs npm; run it to
# move to another version, then commit both files.
#   report/render/html/vendor/update.sh [d3-flame-graph version]
set -eu
version=${1:-5.0.0}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
npm init -y >/dev/null
npm install --no-audit --no-fund --silent "d3-flame-graph@$version" esbuild@0.25
printf 'export { default as flamegraph } from "d3-flame-graph";\nexport { select } from "d3-selection";\n' >entry.js
npx esbuild entry.js --bundle --minify --format=iife --global-name=d3fg --legal-comments=none --log-level=warning \
    --outfile=out/bundle.js
{
  echo "/*! d3-flame-graph $version (https://github.com/spiermar/d3-flame-graph) with the d3 modules it uses"
  echo " * (https://d3js.org), bundled and minified by report/render/html/vendor/update.sh."
  # One notice per distinct license text, naming the packages it covers.
  for pkg in $(ls node_modules | grep -E '^(d3-|internmap$)'); do
    echo "$(md5sum <node_modules/$pkg/LICENSE | cut -c1-32) $pkg"
  done | sort | awk '{ names[$1] = names[$1] (names[$1] ? ", " : "") $2 } END { for (h in names) print h, names[h] }' | sort -k2 |
  while read -r hash names; do
    first=${names%%,*}
    echo " *"
    echo " * $names: $(node -p "require('./node_modules/$first/package.json').license")"
    echo " *"
    sed -e 's/^/ * /' -e 's/ *$//' node_modules/$first/LICENSE
  done
  echo " */"
  cat out/bundle.js
} >"$here/d3-flamegraph.min.js"
{
  echo "/*! d3-flame-graph $version, Apache-2.0: see d3-flamegraph.min.js */"
  cat out/bundle.css
  echo
} >"$here/d3-flamegraph.css"
