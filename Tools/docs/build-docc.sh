#!/usr/bin/env bash
# Builds the LNoteStore DocC catalog with the toolchain's own tools (no package plugin) and
# fails when DocC warns (an unresolved or ambiguous link, a topic naming no symbol, any other
# warning or error) or when a public top-level symbol is under no topic of LNoteStore.md.
#
#   Tools/docs/build-docc.sh            # archive in .build/docs, diagnostics in .build/docs.log
#   DOCC_OUTPUT=/tmp/site Tools/docs/build-docc.sh
#
# Why the compiler emits the symbol graph (`-emit-symbol-graph` during the build) rather than
# `swift-symbolgraph-extract` (what `swift package dump-symbol-graph` runs): the element model
# (`Stroke`, `InputPoint`, `Element`, `PageState`, ...) is declared in LNoteFormat and
# re-exported by `@_exported import struct LNoteFormat.Stroke` and its siblings
# (Sources/LNoteStore/Exports.swift). The compiler's graph of LNoteStore holds those
# declarations with their doc comments, so they get pages in LNoteStore's archive; the
# extractor leaves them out. LNoteFormat's own graph is not given to DocC: everything of it
# an app sees is already in LNoteStore's, and the rest (codecs, scanners) is not app API.
#
# The build uses its own scratch path, so the extra compiler flags do not invalidate the
# everyday build in `.build`. The first run compiles LNoteFormat and LNoteStore (a minute or
# two); later runs recompile only what changed.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"

scratch=.build/docc-symbols
graphs="$scratch/symbol-graphs"    # what the compiler writes, every module it compiles
input="$scratch/docc-input"        # what DocC reads: LNoteStore's graphs only
output="${DOCC_OUTPUT:-.build/docs}"
log="${output%/}.log"
catalog=Sources/LNoteStore/LNoteStore.docc

build() {
    mkdir -p "$graphs"
    swift build --scratch-path "$scratch" --target LNoteStore \
        -Xswiftc -emit-symbol-graph \
        -Xswiftc -emit-symbol-graph-dir -Xswiftc "$root/$graphs" \
        -Xswiftc -symbol-graph-minimum-access-level -Xswiftc public
}

# True when LNoteStore's graph is missing or older than a source it documents. An up-to-date
# build compiles nothing and so emits nothing; a change to a doc comment in LNoteFormat alone
# may not recompile LNoteStore, whose graph holds the re-exported declarations.
stale() {
    local graph="$graphs/LNoteStore.symbols.json"
    [[ ! -f "$graph" ]] && return 0
    [[ -n "$(find Sources/LNoteStore Sources/LNoteFormat -name '*.swift' -newer "$graph" -print -quit)" ]]
}

echo "== symbol graphs (swift build -emit-symbol-graph, scratch path $scratch)"
build
if stale; then
    # Remove LNoteStore's module so the next build compiles it again and emits its graph.
    echo "== LNoteStore's symbol graph is stale: compiling LNoteStore again"
    find "$scratch" -path '*/debug/Modules/LNoteStore.swift*' -exec rm -f {} +
    build
fi
if stale; then
    echo "error: no up-to-date $graphs/LNoteStore.symbols.json after the build" >&2
    exit 1
fi

rm -rf "$input"
mkdir -p "$input"
cp "$graphs"/LNoteStore.symbols.json "$input"/
# Extensions LNoteStore declares on other modules' types (Foundation's), if any.
find "$graphs" -maxdepth 1 -name 'LNoteStore@*.symbols.json' -exec cp {} "$input"/ \;

echo "== docc convert $catalog -> $output"
rm -rf "$output"
set +e
docc convert "$catalog" \
    --additional-symbol-graph-dir "$input" \
    --output-path "$output" \
    --fallback-display-name LNoteStore \
    --fallback-bundle-identifier org.lnote.LNoteStore \
    --analyze >"$log" 2>&1
status=$?
set -e

warnings=$(grep -cE '^(warning|error):' "$log" || true)
notes=$(grep -cE '^note:' "$log" || true)
echo "docc: exit $status, $warnings warnings or errors, $notes notes (full output: $log)"
if [[ $status -ne 0 || $warnings -ne 0 ]]; then
    # Each diagnostic with the source lines DocC prints under it.
    awk '/^(warning|error):/ { show = 1 } /^note:/ { show = 0 } show' "$log" >&2
    echo "error: DocC reported warnings or errors (unresolved links among them); fix them" >&2
    exit 1
fi

# Every public top-level symbol under a topic of LNoteStore.md: DocC files the others under
# groups it generates ("Structures", "Enumerations", ...) and --analyze does not warn.
module_page="$output/data/documentation/lnotestore.json"
uncurated=$(grep -o '{[^{}]*"generated":true[^{}]*}' "$module_page" \
    | grep -o 'documentation\\/LNoteStore\\/[^"]*' | sed 's|.*\\/||' || true)
if [[ -n "$uncurated" ]]; then
    echo "error: public symbols under no topic of $catalog/LNoteStore.md:" >&2
    echo "$uncurated" | sed 's/^/  /' >&2
    exit 1
fi
echo "ok: $output (every top-level symbol under a topic)"
