# Sourced by guest.sh: plumscale-display.service, the plumscale package's display unit, at work
# on a simulated SSD1306 whose frame_file is the panel's image (a 128x64 PBM, "P1"). It checks
# that the package leaves the unit disabled and that it is skipped, not failed, without
# [display]; that it draws the daemon's weight, survives `systemctl restart plumscaled` without a
# restart of its own, and draws the new daemon's weight after it; that its sandbox is the one the
# unit file says (systemctl show, the process's groups and namespaces) and the journal holds no
# error of it. Uses guest.sh's check, prop, load, shows, RUNS and STATE.

DISPLAY_UNIT=plumscale-display.service
DISPLAY_FRAME=/run/plumscale-display/display.pbm

# display_frame: the frame file's content when it is a whole 128x64 PBM (P1, 64 rows of 128
# digits); fails otherwise (not there yet, or not a frame of this panel).
display_frame() {
    local text
    text=$(cat "$DISPLAY_FRAME" 2>/dev/null) || return 1
    # (no /^[01]{128}$/: Debian 12's mawk has no interval expressions)
    awk 'NR == 1 && $0 != "P1" {bad = 1} NR == 2 && $0 != "128 64" {bad = 1}
        NR > 2 && (length($0) != 128 || $0 ~ /[^01]/) {bad = 1} END {exit (bad || NR != 66) ? 1 : 0}' <<<"$text" ||
        return 1
    printf '%s\n' "$text"
}
# display_settled_into FILE [NOT...]: waits (90 s at most) for a frame that stays the same for a
# second and differs from each NOT file, and keeps it in FILE. A redraw happens within 50 ms of a
# change, so a frame a second old is what the panel shows, not a step on the way to it.
display_settled_into() {
    local into=$1; shift
    local deadline=$((SECONDS + 90)) first second not differs
    while ((SECONDS < deadline)); do
        if first=$(display_frame); then
            sleep 1
            second=$(display_frame) || continue
            if [[ $first == "$second" ]]; then
                differs=1
                for not in "$@"; do [[ $first == "$(cat "$not")" ]] && differs=0; done
                if ((differs)); then printf '%s\n' "$first" >"$into"; return 0; fi
            fi
        else
            sleep 0.2
        fi
    done
    return 1
}
# display_lit FILE: how many pixels of the frame in FILE are lit.
display_lit() { tail -n +3 "$1" 2>/dev/null | tr -cd 1 | wc -c; }

# Phase 1, with the daemon, the bridge and the page set up and running, and 120 g on the pan.
display_phase1() {
    local conf=/etc/plumscale/plumscale.toml
    # ---- shipped disabled, and skipped without [display] ------------------------------------------
    # The package enables no display (a Pi without a panel must not start one); setup, whose
    # answers here had no [display], left it so. Started by hand without [display], ExecCondition=
    # skips it: not failed, not restarted.
    local enabled active
    enabled=$(systemctl is-enabled "$DISPLAY_UNIT" 2>&1)
    active=$(systemctl is-active "$DISPLAY_UNIT" 2>&1)
    systemctl start "$DISPLAY_UNIT" >"$RUNS/display-condition.out" 2>&1
    local rc=$?
    # A skip leaves the unit inactive with Result=success: systemd's own line in the journal tells.
    local after skipped
    after="$(prop "$DISPLAY_UNIT" ActiveState) $(prop "$DISPLAY_UNIT" Result) NRestarts=$(prop "$DISPLAY_UNIT" NRestarts)"
    skipped=$(journalctl -b -u "$DISPLAY_UNIT" --no-pager -o cat | grep -c "Skipped due to 'exec-condition'")
    check systemd.display.shipped-disabled "after install and setup without [display]: $DISPLAY_UNIT $enabled, \
$active (want disabled, inactive); started without [display]: rc=$rc, $after (want inactive success NRestarts=0), \
\"Skipped due to 'exec-condition'\" $skipped time(s) in its journal (want 1)" \
        test "$enabled|$active|$rc|$after|$skipped" = "disabled|inactive|0|inactive success NRestarts=0|1"

    # ---- the devices the unit allows are the kernel's names -----------------------------------------
    # DeviceAllow=char-i2c and char-fb name majors in /proc/devices; a name the kernel does not
    # have would leave the device list without it (systemd only logs it).
    local majors
    majors=$(awk '/^Character devices:/ {c = 1; next} /^$/ {c = 0} c && ($2 == "i2c" || $2 == "fb") {print $1 " " $2}' \
        /proc/devices | tr '\n' ' ')
    check systemd.display.device-names "/proc/devices: '$majors' (want 89 i2c and 29 fb, the names DeviceAllow= uses)" \
        bash -c "[[ ' $majors' == *' 89 i2c '* && ' $majors' == *' 29 fb '* ]]"

    # ---- the screen while the daemon is away ----------------------------------------------------------
    cat >>"$conf" <<'EOF'

[display]
kind = "simulated-ssd1306"
frame_file = "/run/plumscale-display/display.pbm"
EOF
    # The socket stops too, or the display's connection would start the daemon through it; the
    # bridge and the page stop first for the same reason.
    systemctl stop plumscale-mqtt.service plumscale-web.service plumscaled.socket plumscaled.service
    local enable_at=$SECONDS
    systemctl enable --now "$DISPLAY_UNIT" >"$RUNS/display-enable.out" 2>&1
    rc=$?
    display_settled_into "$STATE/display-away.pbm"
    local away=$?
    check systemd.display.away "systemctl enable --now $DISPLAY_UNIT (rc=$rc) with plumscaled and its socket \
stopped: $(systemctl is-active "$DISPLAY_UNIT"), a 128x64 frame in $DISPLAY_FRAME after $((SECONDS - enable_at))s \
($(display_lit "$STATE/display-away.pbm") pixels lit), owner $(stat -c '%U %a' "$DISPLAY_FRAME" 2>&1)" \
        test "$rc|$away|$(systemctl is-active "$DISPLAY_UNIT")" = "0|0|active"

    # ---- the weight, once the daemon is back ----------------------------------------------------------
    systemctl start plumscaled.socket plumscaled.service plumscale-mqtt.service plumscale-web.service
    load 120
    shows reader 120.0
    local shown=$?
    display_settled_into "$RUNS/display-120.pbm" "$STATE/display-away.pbm"
    local drew120=$?
    load 80
    shows reader 80.0
    display_settled_into "$RUNS/display-80.pbm" "$STATE/display-away.pbm" "$RUNS/display-120.pbm"
    local drew80=$?
    check systemd.display.draws "plumscaled back (the pan reads 120.0 g: rc=$shown): a frame that is not the \
away screen ($drew120, $(display_lit "$RUNS/display-120.pbm") pixels lit); 80 g on the pan: another again ($drew80, \
$(display_lit "$RUNS/display-80.pbm") lit)" test "$shown|$drew120|$drew80" = "0|0|0"

    # ---- a restart of the daemon: the display stays, and draws the new daemon's weight -------------
    local pid restarts daemon_pid
    pid=$(prop "$DISPLAY_UNIT" MainPID)
    restarts=$(prop "$DISPLAY_UNIT" NRestarts)
    daemon_pid=$(prop plumscaled.service MainPID)
    systemctl restart plumscaled.service
    rc=$?
    local restarted_at=$SECONDS
    # 120 g again, read by the new daemon alone: a new frame, neither the away screen nor the old
    # daemon's 80 g (and, the picture being the weight's, the one 120 g drew before, as a note).
    load 120
    shows reader 120.0
    display_settled_into "$RUNS/display-after.pbm" "$STATE/display-away.pbm" "$RUNS/display-80.pbm"
    local drew_after=$?
    local same120="differs from"
    cmp -s "$RUNS/display-after.pbm" "$RUNS/display-120.pbm" && same120="the same as"
    check systemd.display.survives-daemon-restart "systemctl restart plumscaled (rc=$rc, pid $daemon_pid -> \
$(prop plumscaled.service MainPID)): $DISPLAY_UNIT $(systemctl is-active "$DISPLAY_UNIT"), pid $pid -> \
$(prop "$DISPLAY_UNIT" MainPID), NRestarts $restarts -> $(prop "$DISPLAY_UNIT" NRestarts); 120 g on the new daemon \
drawn after $((SECONDS - restarted_at))s ($drew_after: want 0), $same120 the frame of 120 g before" \
        test "$rc|$(systemctl is-active "$DISPLAY_UNIT")|$(prop "$DISPLAY_UNIT" MainPID)|$(prop "$DISPLAY_UNIT" NRestarts)|$drew_after" = \
        "0|active|$pid|0|0"

    # ---- the sandbox the unit file says ---------------------------------------------------------------
    systemctl show -p DynamicUser -p SupplementaryGroups -p DevicePolicy -p DeviceAllow -p PrivateDevices \
        -p PrivateNetwork -p RestrictAddressFamilies -p IPAddressDeny -p CapabilityBoundingSet -p ProtectSystem \
        -p NoNewPrivileges -p MemoryDenyWriteExecute -p ProtectHome -p PrivateTmp -p RuntimeDirectory \
        "$DISPLAY_UNIT" >"$RUNS/display-show.out" 2>&1
    local want missing=""
    for want in DynamicUser=yes "SupplementaryGroups=plumscale i2c video" DevicePolicy=closed \
        "DeviceAllow=char-i2c rw" "DeviceAllow=char-fb rw" PrivateDevices=no PrivateNetwork=yes \
        RestrictAddressFamilies=AF_UNIX CapabilityBoundingSet= ProtectSystem=strict NoNewPrivileges=yes \
        MemoryDenyWriteExecute=yes ProtectHome=yes PrivateTmp=yes RuntimeDirectory=plumscale-display; do
        grep -qxF "$want" "$RUNS/display-show.out" || missing+="$want; "
    done
    # IPAddressDeny=any shows as the two whole address families.
    grep -q '^IPAddressDeny=.*0\.0\.0\.0/0' "$RUNS/display-show.out" || missing+="IPAddressDeny=any; "
    pid=$(prop "$DISPLAY_UNIT" MainPID)
    local groups uid links
    groups=$(awk '/^Groups:/ {$1 = ""; print}' "/proc/$pid/status" | tr ' ' '\n' | grep . |
        while read -r gid; do getent group "$gid" | cut -d: -f1; done | sort | tr '\n' ' ')
    uid=$(awk '/^Uid:/ {print $2}' "/proc/$pid/status")
    links=$(nsenter -t "$pid" -n ip -o link | awk -F': ' '{print $2}' | tr '\n' ' ')
    check systemd.display.sandbox "systemctl show: missing '$missing' (want none) of $(grep -c . "$RUNS/display-show.out") \
properties; the process: uid $uid ($(id -nu "$uid" 2>&1)), groups: $groups(want its own, i2c, plumscale and \
video); network interfaces: $links(want only lo; the files it may not read: systemd.sandbox.plumscale-display.files)" \
        bash -c "[[ -z '$missing' && '$groups' == 'i2c plumscale plumscale-display video ' && '$links' == 'lo ' &&
            $uid -ge 61184 ]]"
}

# display_journal_clean NAME: a check that the unit's journal of this boot holds no error of the
# program, no failure or refused system call of the unit, and no device systemd could not
# resolve. The one line it lets by is libdispatch's at each start, "Failed to set thread priority
# for worker thread: ... errno=13", which every service's journal has: a worker thread may not
# raise its own priority without CAP_SYS_NICE, which none of the units has, on purpose.
display_journal_clean() {
    journalctl -b -u "$DISPLAY_UNIT" --no-pager -o cat >"$RUNS/display.journal" 2>&1
    local bad
    bad=$(grep -v '^Failed to set thread priority for worker thread: .* errno=13$' "$RUNS/display.journal" |
        grep -E ' (error|critical) |Failed|failed with|status=|SIGSYS|Couldn.t resolve|Failed to resolve' |
        head -n 3 | tr '\n' ' ')
    check "$1" "journal of $DISPLAY_UNIT since boot: $(grep -c . "$RUNS/display.journal") lines, errors: '$bad' \
(want none); last: $(grep -v '^$' "$RUNS/display.journal" | tail -n 1 | head -c 200)" test -z "$bad"
}
