#!/usr/bin/env bash
# The public API of the library products, one declaration a line, in API/<Module>.txt: the
# record that makes every change of the API deliberate. `scripts/public-api.sh` rewrites the
# record from the current build; `scripts/public-api.sh --check` fails (exit 1, with the diff)
# when the build's API differs from it. PublicAPITests runs the check, so a change of the API
# without its record fails the tests: update the record in the same commit, and the review
# sees the API change as a diff of API/.
#
# Every public declaration written in Sources/ must carry a `///` comment (issue 30: every public
# symbol documented): either mode fails, naming each undocumented one by file and line. What the
# compiler synthesises (`hash(into:)` of an enum) and what a conformance inherits are not ours
# to document and are left out.
#
# Reads the debug build's modules (`swift build` first); the symbol graph comes from the
# toolchain's swift-symbolgraph-extract, reduced to sorted `path: declaration` lines.
set -euo pipefail
cd "$(dirname "$0")/.."

modules=(Inventory DraftFlow StockroomStore StockroomMigrations SQLiteCore PostgresCore StockroomHTTP)
check=false
[ "${1:-}" = "--check" ] && check=true

# Not `swift build --show-bin-path`: the test that runs this script runs inside `swift test`,
# which holds the build folder's lock.
triple_dir=$(readlink -f .build/debug)
[ -d "$triple_dir/Modules" ] || { echo "public-api: no debug build in .build/debug: run swift build first" >&2; exit 1; }
graphs=$(mktemp -d)
trap 'rm -rf "$graphs"' EXIT
extract=$(dirname "$(command -v swift)")/swift-symbolgraph-extract

# The C modules the Swift modules import, ours and the dependencies' (StockroomHTTP's SwiftNIO,
# BoringSSL, swift-numerics): the module maps SwiftPM generated for each C target.
c_modules=()
for map in "$triple_dir"/*.build/module.modulemap .build/checkouts/*/Sources/*/include/module.modulemap; do
    [ -f "$map" ] && c_modules+=(-Xcc "-fmodule-map-file=$map")
done

status=0
for module in "${modules[@]}"; do
    "$extract" -module-name "$module" -minimum-access-level public -I "$triple_dir/Modules" \
        -target "$(uname -m)-unknown-linux-gnu" -output-dir "$graphs" \
        -Xcc -fmodule-map-file=Sources/CSQLite/module.modulemap \
        -Xcc -fmodule-map-file=Sources/CLibPQ/module.modulemap \
        "${c_modules[@]}" \
        -Xcc -I -Xcc Sources/LibPQ/include >/dev/null
    current="$graphs/$module.txt"
    python3 - "$graphs" "$module" "$graphs/$module.undocumented" >"$current" <<'PY'
import glob, json, os, sys
folder, module, undocumented_path = sys.argv[1], sys.argv[2], sys.argv[3]
lines = set()
undocumented = []
# The module's own graph and its extensions of other modules' types (Module@Other.symbols.json).
for path in [os.path.join(folder, module + ".symbols.json")] + glob.glob(os.path.join(folder, module + "@*.symbols.json")):
    graph = json.load(open(path))
    for symbol in graph["symbols"]:
        name = ".".join(symbol["pathComponents"])
        declaration = "".join(f["spelling"] for f in symbol.get("declarationFragments", []))
        lines.add(f"{name}: {' '.join(declaration.split())}")
        # Declared in our sources (a location) and without a comment of its own.
        location = symbol.get("location")
        comment = symbol.get("docComment") or {}
        if location and not any(line["text"].strip() for line in comment.get("lines", [])):
            file = location["uri"].split("/Sources/", 1)[-1]
            undocumented.append(f"Sources/{file}:{location['position']['line'] + 1}: {name}")
print("\n".join(sorted(lines)))
with open(undocumented_path, "w") as out:
    out.write("".join(line + "\n" for line in sorted(undocumented)))
PY
    if [ -s "$graphs/$module.undocumented" ]; then
        sed 's/^/public-api: undocumented public symbol: /' "$graphs/$module.undocumented" >&2
        echo "public-api: $module has $(wc -l < "$graphs/$module.undocumented") public symbol(s) without a /// comment" >&2
        status=1
    fi
    record="API/$module.txt"
    if $check; then
        if ! diff -u "$record" "$current" >&2; then
            echo "public-api: $module's public API differs from $record: if the change is meant, run scripts/public-api.sh and commit API/" >&2
            status=1
        fi
    else
        cp "$current" "$record"
    fi
done
exit $status
