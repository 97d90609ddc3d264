#!/usr/bin/env bash
# Builds one LNote fuzz target with libFuzzer and AddressSanitizer and runs it.
#
#   Tools/fuzz/run.sh TARGET SECONDS [extra libFuzzer flags]
#   TARGET: frame-reader | snapshot-decoder | point-codec | deferred-points | document-json | package-open
#
# The package's sources (CLNoteFormat, CLNoteStore, LNoteFormat, LNoteStore, LNoteHandwriting, LNoteSimulation) are compiled
# directly with `swiftc -sanitize=fuzzer,address` into .build/fuzz/ (none of SwiftPM's
# .build is touched). The corpus lives in .build/fuzz/corpus/TARGET (seeded from
# FuzzHarness.seeds); inputs that break an invariant or crash are saved to
# Tools/fuzz/crashes/TARGET/. Copy one to Tools/fuzz/regressions/TARGET/ to replay it in
# `swift test` (FuzzRegressionTests). Prints `fuzz TARGET: N executions, K findings`.
set -euo pipefail
target=${1:?usage: run.sh TARGET SECONDS}
seconds=${2:?usage: run.sh TARGET SECONDS}
shift 2
case "$target" in
  frame-reader|snapshot-decoder|point-codec|deferred-points|document-json|package-open) ;;
  *) echo "unknown target $target" >&2; exit 2 ;;
esac
root=$(cd "$(dirname "$0")/../.." && pwd)
out="$root/.build/fuzz"
mkdir -p "$out/obj" "$out/modules" "$out/corpus/$target" "$root/Tools/fuzz/crashes/$target"
export SWIFT_BACKTRACE=enable=no
swiftc=${SWIFTC:-swiftc}
clang=${CLANG:-$(dirname "$(command -v "$swiftc")")/clang}
swift_flags=(-sanitize=fuzzer,address -parse-as-library -O -g -swift-version 6 -package-name lnote
             -enable-upcoming-feature ExistentialAny -I "$out/modules")

stamp="$out/obj/.sources"
sources_hash=$(cat "$root"/Sources/CLNote*/*.c "$root"/Sources/CLNote*/include/*.h \
  "$root"/Sources/LNoteFormat/*.swift "$root"/Sources/LNoteFormat/*/*.swift \
  "$root"/Sources/LNoteStore/*.swift "$root"/Sources/LNoteStore/*/*.swift \
  "$root"/Sources/LNoteHandwriting/*.swift \
  "$root"/Sources/LNoteSimulation/*.swift "$root"/Sources/LNoteSimulation/*/*.swift "$0" | cksum)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$sources_hash" ]; then
  echo "== building modules"
  # Every public header of the two C targets, as SwiftPM's generated module maps have them.
  : > "$out/modules/module.modulemap"
  for module in CLNoteFormat CLNoteStore; do
    {
      echo "module $module {"
      for h in "$root/Sources/$module"/include/*.h; do echo "  header \"$h\""; done
      echo "  export *"
      echo "}"
    } >> "$out/modules/module.modulemap"
    for c in "$root/Sources/$module"/*.c; do
      "$clang" -c -O1 -g -fsanitize=fuzzer-no-link,address -I "$root/Sources/$module/include" "$c" \
        -o "$out/obj/$(basename "$c" .c).o"
    done
  done
  build_module() {  # name, source folder
    "$swiftc" "${swift_flags[@]}" -module-name "$1" -wmo -c $(find "$root/Sources/$2" -name '*.swift' | sort) \
      -emit-module -emit-module-path "$out/modules/$1.swiftmodule" -o "$out/obj/$1.o"
  }
  build_module LNoteFormat LNoteFormat
  build_module LNoteStore LNoteStore
  build_module LNoteHandwriting LNoteHandwriting
  build_module LNoteSimulation LNoteSimulation
  echo "$sources_hash" > "$stamp"
fi

echo "== linking $target"
echo "let fuzzTargetName = \"$target\"" > "$out/obj/FuzzTarget-$target.swift"
# ld.gold warns about every ASan helper it cannot export; keep that noise in a log.
"$swiftc" "${swift_flags[@]}" -module-name LNoteFuzz "$root/Tools/fuzz/targets/FuzzMain.swift" \
  "$out/obj/FuzzTarget-$target.swift" "$out"/obj/*.o -o "$out/fuzz-$target" 2>"$out/link-$target.log" \
  || { cat "$out/link-$target.log" >&2; exit 1; }

# package-open runs Swift concurrency (Page is an actor); the runtime's lazily allocated task
# and metadata caches look like leaks, and LeakSanitizer's scan after every such input would
# cost 95% of the time. Memory stays bounded by -rss_limit_mb / -malloc_limit_mb.
extra=()
[ "$target" = package-open ] && extra+=(-detect_leaks=0)
echo "== fuzzing $target for $seconds s"
log="$out/fuzz-$target.log"
set +e
LNOTE_FUZZ_SEED_DIR="$out/corpus/$target" "$out/fuzz-$target" "$out/corpus/$target" \
  -max_total_time="$seconds" -rss_limit_mb=1024 -malloc_limit_mb=256 -timeout=10 -max_len=${MAX_LEN:-65536} \
  -artifact_prefix="$root/Tools/fuzz/crashes/$target/" -print_final_stats=1 ${extra[@]+"${extra[@]}"} "$@" >"$log" 2>&1
rc=$?
set -e
grep -E "^#[0-9]+.*(INITED|DONE)|stat::number_of_executed_units|SUMMARY|invariant failed|ERROR:" "$log" | tail -n 20 || true
execs=$(grep -E "stat::number_of_executed_units" "$log" | awk '{print $2}' | tail -n 1)
findings=$(find "$root/Tools/fuzz/crashes/$target" -type f | wc -l | tr -d ' ')
echo "fuzz $target: ${execs:-0} executions, $findings findings (exit $rc; log $log)"
exit $rc
