# Sourced by the guest scripts of both VM suites (Tests/kernel/guest.sh and
# Tests/kernel/systemd/guest.sh): how a check's verdict is written. Expects R (the results file)
# and PLUM_OUT (the results share).

# result STATUS NAME DETAIL: one "STATUS NAME: DETAIL" line in results.txt, echoed to the console.
result() { echo "$1 $2: ${3:-}" >>"$R"; echo "guest: $1 $2 ${3:-}"; }
pass() { result PASS "$@"; }
fail() { result FAIL "$@"; }
skip() { result SKIP "$@"; }
check() { # check NAME DETAIL COMMAND...: PASS when COMMAND succeeds
    local name=$1 detail=$2; shift 2
    if "$@"; then pass "$name" "$detail"; else fail "$name" "$detail"; fi
}
# progress MARK: how far the guest got, for the host to tell a crash from an end.
progress() { echo "$*" >>"$PLUM_OUT/progress.txt"; }
