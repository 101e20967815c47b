#!/usr/bin/env bash
# Builds the libFuzzer targets (Sources/fuzz-*) with -sanitize=fuzzer,address into .build-fuzz
# and runs each from its seed corpus in Tests/fuzz/corpus/<target>/.
#
#   Tests/fuzz/run.sh [LIMIT] [TARGET...]
#
# LIMIT is a time per target, 20s (the default, what CI runs) or 10m, or a number of
# executions per target, such as 1000000 (capped by FUZZ_MAX_SECONDS, default 7200 s).
# TARGET is request, mtsics, config, trace or calibration; all of them by default.
#
# It prints one line per target (executions, seconds, result) and exits 1 if any target
# crashed, hung (an input that ran longer than FUZZ_TIMEOUT s, default 30) or leaked; the
# input that did it is kept under .build-fuzz/reproducers/<target>/ (not artifacts/: SwiftPM
# owns that name in a scratch path and empties it on every build) and its path is printed,
# with the command that replays it in a normal build. Inputs the fuzzer found interesting are
# kept in .build-fuzz/corpus/<target>/ for the next run; the committed seeds are never changed.
#
# FUZZ_SEED=N fixes libFuzzer's random seed and starts from the committed seeds alone (what
# the run finds is kept in a temporary directory, not .build-fuzz/corpus). With a number of
# executions as the LIMIT, the same inputs are then tried on every machine, fast or slow: CI
# runs that way, so its verdict never depends on luck, load or an earlier run. Searching for new crashes
# is a longer run without a seed; what it finds becomes a seed and a unit test.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="/opt/swift/usr/bin:$PATH"

all_targets=(request mtsics config trace calibration)
limit="${1:-20s}"
[[ $# -gt 0 ]] && shift
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=("${all_targets[@]}")

case "$limit" in
    *[0-9]s) seconds="${limit%s}"; runs=-1 ;;
    *[0-9]m) seconds=$(( ${limit%m} * 60 )); runs=-1 ;;
    *[0-9]) seconds="${FUZZ_MAX_SECONDS:-7200}"; runs="$limit" ;;
    *) echo "usage: $0 [20s|10m|1000000] [${all_targets[*]}]" >&2; exit 2 ;;
esac

# Longest input per target: a request line is refused past 4096 bytes, an MT-SICS command is
# a few bytes, the shipped configurations and calibration files are under 5 KB.
max_len() {
    case "$1" in
        request) echo 4200 ;; mtsics) echo 256 ;; trace) echo 4096 ;; *) echo 8192 ;;
    esac
}

# TOMLKit 0.6.0 leaks its parse-error slot on every parse (never freed in TOMLTable(string:)),
# about 24 bytes per configuration read, more on a parse error; it is not ours to fix, so the
# configuration target runs without leak detection (libFuzzer's per input and LeakSanitizer's at exit).
detect_leaks() { [[ "$1" == config ]] && echo 0 || echo 1; }

scratch=.build-fuzz
for target in "${targets[@]}"; do
    if [[ ! -d "Tests/fuzz/corpus/$target" ]]; then
        echo "unknown target $target; known: ${all_targets[*]}" >&2
        exit 2
    fi
done

# swiftc keeps only the last of several -sanitize= options, so SwiftPM's `--sanitize fuzzer
# --sanitize address` builds either without coverage or without AddressSanitizer. SwiftPM's
# `--sanitize fuzzer` is kept (it then compiles executables with -parse-as-library and leaves
# `main` to libFuzzer), and a last -sanitize=fuzzer,address asks for both. C and C++ (the
# shim, toml++ in TOMLKit) get coverage and ASan as well.
echo "building ${targets[*]} with -sanitize=fuzzer,address into $scratch"
for target in "${targets[@]}"; do
    swift build -c release --scratch-path "$scratch" --sanitize fuzzer \
        -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING \
        -Xcc -fsanitize=fuzzer-no-link,address -Xcxx -fsanitize=fuzzer-no-link,address \
        --product "fuzz-$target" 2>&1 \
        | grep -v -e "Cannot export local symbol '__asan_extra_spill_area'" || true
    test -x "$scratch/release/fuzz-$target" || { echo "building fuzz-$target failed" >&2; exit 1; }
done

# The trace and calibration targets write each input to a file; tmpfs keeps that cheap.
export TMPDIR
shm=/dev/shm
[[ -d $shm && -w $shm ]] || shm=/tmp
TMPDIR=$(mktemp -d "${FUZZ_TMPDIR:-$shm}/plumscale-fuzz.XXXXXX")
trap 'rm -rf "$TMPDIR"' EXIT
# A trap in Swift code is reported by libFuzzer (deadly signal) and its input kept; the Swift
# backtracer would only slow that down. Replaying the input in a normal build gives the
# Swift backtrace.
export SWIFT_BACKTRACE=enable=no

# ASan's allocator returning memory to the OS (madvise) stalled inputs for over 10 s on a
# starved machine, each reported as a hang though it replays in 3 ms: it is turned off.
#
# TOMLKit also leaks a few kilobytes in every configuration it reads (keys, strings, numbers),
# so one long fuzzing process would reach libFuzzer's 2 GB memory limit after ~300,000
# executions. The configuration target runs in rounds of at most this many executions.
round_runs() { [[ "$1" == config ]] && echo 100000 || echo -1; }

failed=()
printf '\n%-12s %12s %8s  %s\n' target executions seconds result
for target in "${targets[@]}"; do
    corpus="$scratch/corpus/$target"
    [[ -n "${FUZZ_SEED:-}" ]] && corpus="$TMPDIR/corpus/$target"
    artifacts="$scratch/reproducers/$target"
    log="$scratch/logs/$target.log"
    mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"
    : >"$log"
    dict=()
    [[ -f "Tests/fuzz/$target.dict" ]] && dict=("-dict=Tests/fuzz/$target.dict")
    seed=()
    [[ -n "${FUZZ_SEED:-}" ]] && seed=("-seed=$FUZZ_SEED")
    status=0 executions=0 started=$SECONDS
    while :; do
        left_seconds=$(( seconds - (SECONDS - started) ))
        left_runs=-1
        [[ $runs -ge 0 ]] && left_runs=$(( runs - executions ))
        [[ $left_seconds -gt 0 && $left_runs -ne 0 ]] || break
        round=$(round_runs "$target")
        [[ $round -ge 0 && ( $left_runs -lt 0 || $left_runs -gt $round ) ]] && left_runs=$round
        ASAN_OPTIONS="detect_leaks=$(detect_leaks "$target"):allocator_release_to_os_interval_ms=-1" nice -n 19 "$scratch/release/fuzz-$target" \
            -max_total_time="$left_seconds" -runs="$left_runs" -timeout="${FUZZ_TIMEOUT:-30}" \
            -max_len="$(max_len "$target")" -detect_leaks="$(detect_leaks "$target")" \
            -artifact_prefix="$artifacts/" -print_final_stats=1 "${dict[@]}" "${seed[@]}" \
            "$corpus" "Tests/fuzz/corpus/$target" >"$log.round" 2>&1 || status=$?
        cat "$log.round" >>"$log"
        done=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log.round" | tail -1)
        executions=$(( executions + ${done:-0} ))
        [[ $status -eq 0 && ${done:-0} -gt 0 ]] || break
    done
    rm -f "$log.round"
    if [[ $status -eq 0 ]]; then
        result="0 crashes, 0 hangs"
    else
        reproducer=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
        result="FAILED (exit $status): reproducer ${reproducer:-none written}; log $log"
        failed+=("$target")
    fi
    printf '%-12s %12s %8s  %s\n' "$target" "$executions" "$(( SECONDS - started ))" "$result"
done

if [[ ${#failed[@]} -gt 0 ]]; then
    echo
    for target in "${failed[@]}"; do
        echo "--- fuzz-$target: the end of $scratch/logs/$target.log"
        grep -v '^#' "$scratch/logs/$target.log" | tail -40
    done
    echo
    echo "Replay a reproducer in a normal build for a Swift backtrace:"
    echo "  swift build --product fuzz-TARGET && .build/debug/fuzz-TARGET REPRODUCER"
    echo "then make it a unit test in the module's test target and fix the parser (docs/testing.md)."
    exit 1
fi
