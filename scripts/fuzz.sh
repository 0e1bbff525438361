#!/usr/bin/env bash
# Builds the fuzz targets in Fuzz/ with AddressSanitizer and libFuzzer's coverage
# instrumentation, then runs one target, or each in turn, for SECONDS seconds each, starting
# from the committed seed corpus Fuzz/Corpus/TARGET/.
#   scripts/fuzz.sh TARGET SECONDS    e.g. scripts/fuzz.sh csv-reader 600
#   scripts/fuzz.sh all SECONDS       every target, one after the other
#   scripts/fuzz.sh list              the target names
#   scripts/fuzz.sh build             build every target, run none
# Inputs that reach new code go to .build-fuzz/runs/TARGET/corpus/ (kept between runs, never
# committed); a crash or a broken property is written to .build-fuzz/runs/TARGET/ and the
# script exits non-zero. Extra libFuzzer flags can follow SECONDS (e.g. -seed=1). A crash
# replays with the target's binary and the file: .build-fuzz/debug/FuzzCSVReader CRASH-FILE.
set -euo pipefail
cd "$(dirname "$0")/.."

# One function, read whole before it runs: editing this file during a long run is safe.
main() {

    # name  executable product  largest input (bytes)
    targets=(
        "csv-reader          FuzzCSVReader         8192"
        "json-scanner        FuzzJSONScanner       4096"
        "import-row          FuzzImportRowDecoder  4096"
        "id-prefix           FuzzIDPrefix          512"
        "sql-tokens          FuzzSQLTokens         1024"
        "connection-string   FuzzConnectionString  1024"
        "bounded-printf      FuzzBoundedPrintf     512"
    )

    usage() { echo "usage: scripts/fuzz.sh TARGET|all SECONDS [libFuzzer flags...] (scripts/fuzz.sh list for the targets)" >&2; exit 64; }

    if [ "${1:-}" = "list" ]; then
        for line in "${targets[@]}"; do read -r name _ _ <<<"$line"; echo "$name"; done
        exit 0
    fi
    if [ "${1:-}" = "build" ]; then
        target=all seconds=
    else
        [ $# -ge 2 ] || usage
        target=$1 seconds=$2
        shift 2
        # libFuzzer reads 0 as "no time limit": a run here always has one.
        [[ "$seconds" =~ ^[1-9][0-9]*$ ]] || usage
    fi

    # Build products and run folders; another folder keeps a second build apart.
    scratch=${STOCKROOM_FUZZ_SCRATCH:-.build-fuzz}
    # SwiftPM gives an executable's `main` another name, so the targets keep their own main and
    # call libFuzzer's LLVMFuzzerRunDriver: link the fuzzer library without its main (and the C++
    # library it is written against). The compile flags are exactly what `-sanitize=fuzzer,address`
    # instruments with; applied to every module, the product's included, so coverage guides the
    # search through the code under test. The build tool that embeds migrations gets them too and
    # still links: nothing in it calls into the fuzzer library.
    swiftc=$(command -v swiftc)
    fuzzer_library=$(find "$(dirname "$swiftc")/../lib/clang" -name "libclang_rt.fuzzer_no_main-$(uname -m).a" | head -n 1)
    if [ -z "$fuzzer_library" ]; then
        echo "error: no libclang_rt.fuzzer_no_main-$(uname -m).a in the toolchain of $swiftc (libFuzzer is needed)" >&2
        exit 69
    fi
    build=(--package-path Fuzz --scratch-path "$scratch" -c debug -Xswiftc -warnings-as-errors
        -Xswiftc -sanitize=address
        -Xswiftc -sanitize-coverage=edge,trace-cmp,inline-8bit-counters,pc-table
        -Xswiftc -use-ld=lld
        -Xlinker "$fuzzer_library" -Xlinker -lstdc++)

    selected=()
    for line in "${targets[@]}"; do
        read -r name _ _ <<<"$line"
        if [ "$target" = all ] || [ "$target" = "$name" ]; then selected+=("$line"); fi
    done
    ((${#selected[@]})) || { echo "error: no fuzz target '$target' (scripts/fuzz.sh list)" >&2; exit 64; }

    echo "fuzz: building ${target} with -sanitize=address and libFuzzer coverage" >&2
    if [ "$target" = all ]; then
        swift build "${build[@]}" >&2
    else
        read -r _ product _ <<<"${selected[0]}"
        swift build "${build[@]}" --product "$product" >&2
    fi
    bin=$(swift build "${build[@]}" --show-bin-path)
    [ -n "$seconds" ] || exit 0

    status=0
    for line in "${selected[@]}"; do
        read -r name product max_len <<<"$line"
        run="$scratch/runs/$name"
        mkdir -p "$run/corpus"
        # A target may have a dictionary of its format's tokens (libFuzzer's -dict).
        dictionary=()
        [ -f "Fuzz/Dictionaries/$name.dict" ] && dictionary=(-dict="Fuzz/Dictionaries/$name.dict")
        echo "fuzz: $name for ${seconds}s (seeds: Fuzz/Corpus/$name, new inputs: $run/corpus)" >&2
        # New inputs go to the first folder only, so the committed seeds stay as they are.
        # The timeout is generous (a shared machine can stall a process for seconds); a target
        # that must be quick checks its own CPU time.
        # Leak checking is off: the Swift runtime keeps metadata caches for the process's life.
        # The Swift runtime's own crash reporter is off: libFuzzer reports (and saves) the input.
        if ! SWIFT_BACKTRACE=enable=no "$bin/$product" "$run/corpus" "Fuzz/Corpus/$name" \
            -max_total_time="$seconds" -max_len="$max_len" -timeout=30 -rss_limit_mb=2048 \
            -detect_leaks=0 -print_final_stats=1 -artifact_prefix="$run/" ${dictionary[@]+"${dictionary[@]}"} "$@" 2>"$run/log"; then
            tail -n 40 "$run/log" >&2
            echo "error: fuzz target $name failed (log and crashing input in $run/)" >&2
            status=1
            continue
        fi
        # The last status line (executions, coverage, corpus) and the final statistics.
        grep -E '^#[0-9]+' "$run/log" | tail -n 1 >&2
        grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' "$run/log" >&2
    done
    exit $status
}

main "$@"
