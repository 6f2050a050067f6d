#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Monitoring outputs on live veth namespaces. Prometheus text (stdout and -o FILE) must parse
# with python3-prometheus-client (the oracle), have no duplicate series and a severity gauge for
# every check of `netpath checks --json`; -o must replace the file atomically and refuse bad
# paths. Nagios mode: a healthy veth is "NETPATH OK", exit 0; a UDP receiver that never reads,
# flooded, gives WARNING/CRITICAL naming the socket finding, with the exit code of the worst.
. "$(dirname "$0")/lib.sh"
np_require_root

# The oracle is Debian's package (tools/install-deps.sh), seen by lib.sh's $NP_PY.
PY=$NP_PY
"$PY" -c 'import prometheus_client' 2>/dev/null ||
	np_fail "python3-prometheus-client is not installed for $PY (tools/install-deps.sh)"

"$NETPATH" checks --json > "$NP_TMP/checks.json" || np_fail "netpath checks --json failed"
np_validate "$NP_TMP/checks.json"

# prom_check FILE IFACE SAMPLED: parse FILE with the oracle and check it against the contract.
prom_check() {
	local bad=0
	"$PY" - "$1" "$NP_TMP/checks.json" "$2" "$3" <<'PY' || bad=1
import json, re, sys
from prometheus_client.parser import text_string_to_metric_families

path, checks_path, iface, sampled = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "1"
text = open(path).read()
assert text.endswith("\n"), "no final newline"
# The text itself: one HELP and one TYPE per family, HELP first, samples only after them and
# consecutive (the oracle is lenient about some of these; node_exporter is not).
declared, current, done = {}, None, set()
for n, line in enumerate(text.splitlines(), 1):
    m = re.match(r"# (HELP|TYPE) (\S+) ", line)
    if m:
        kind, name = m.groups()
        assert (name, kind) not in declared, f"line {n}: second {kind} for {name}"
        assert kind == "HELP" or (name, "HELP") in declared, f"line {n}: TYPE before HELP"
        declared[(name, kind)] = n
        if current and current != name:
            done.add(current)
        current = name
        continue
    assert not line.startswith("#") and line, f"line {n}: unexpected {line!r}"
    name = re.match(r"[a-zA-Z_:][a-zA-Z0-9_:]*", line).group(0)
    assert name == current and (name, "TYPE") in declared, f"line {n}: {name} out of place"
    assert name not in done, f"line {n}: family {name} split"

series, fams = set(), {}
for fam in text_string_to_metric_families(text):
    fams[fam.name] = fam
    assert fam.documentation, f"{fam.name}: no HELP"
    assert fam.type in ("counter", "gauge"), f"{fam.name}: type {fam.type}"
    for s in fam.samples:
        key = (s.name, tuple(sorted(s.labels.items())))
        assert key not in series, f"duplicate series {key}"
        series.add(key)
        assert s.name.startswith("netpath_"), s.name
        # Scopes: the host's series carry no interface (once per host, whatever the files),
        # a device's carry its name, the funnel's namespace and host rows interface="".
        if re.match(r"netpath_(softnet_|netdev_|rmem_max|wmem_max|tcp_mem_|udp_mem_|page_size|conntrack_max)", s.name):
            assert "interface" not in s.labels, f"{s.name}: host-wide with {s.labels}"
        elif s.name.startswith("netpath_stage_") and not s.name.startswith("netpath_stage_judged"):
            want = iface if s.labels.get("scope") == "interface" else ""
            assert s.labels.get("interface") == want, f"{s.name}: interface {s.labels}"
        elif re.match(r"netpath_(link_|nic_|queue_|qdisc_|stack_device_info|device_check_severity)", s.name):
            assert s.labels.get("interface") == iface, f"{s.name}: interface {s.labels}"
        else:
            assert "interface" not in s.labels, f"{s.name}: run-wide with {s.labels}"
        if fam.type == "counter":
            assert s.name.endswith("_total"), f"counter {s.name}"
            assert s.value >= 0, s

def values(name, **labels):
    return [s.value for f in fams.values() for s in f.samples
            if s.name == name and all(s.labels.get(k) == v for k, v in labels.items())]

ids = [c["id"] for c in json.load(open(checks_path))["checks"]]
sev = {}
for cid in ids:
    v = values("netpath_check_severity", check=cid)
    assert len(v) == 1 and v[0] in (0, 1, 2, 3), f"netpath_check_severity for {cid}: {v}"
    assert len(values("netpath_check_skipped", check=cid)) == 1, f"skipped gauge for {cid}"
    sev[cid] = v[0]
assert values("netpath_worst_severity") == [max(sev.values())], "netpath_worst_severity is not the worst check"
# netpath_status is the run's exit code: 0 ok (info included), 1 warning, 2 critical, 3 unknown.
assert values("netpath_status") == [{0: 0, 1: 0, 2: 1, 3: 2}[max(sev.values())]], "netpath_status is not the exit code"
assert values("netpath_info")[0] == 1
assert len(values("netpath_last_run_timestamp_seconds")) == 1
assert not values("netpath_nic_driver_stat_total"), "raw driver counters without the flag"
assert values("netpath_stage_packets_total", stage="ip"), "no funnel counters"
assert not values("netpath_softnet_processed_total"), "node_exporter's node_softnet_* repeated"
# Per-netns sysctls are readable here (netdev_max_backlog and tcp_mem are init_net only).
assert len(values("netpath_tcp_rmem_bytes")) == 3, "no tcp_rmem"
assert not values("netpath_link_mtu_bytes"), "node_exporter's node_network_mtu_bytes repeated"
interval = values("netpath_interval_seconds")[0]
if sampled:
    assert interval > 0.4, interval
    assert values("netpath_stage_drops_per_second", stage="softnet"), "no rates"
else:
    assert interval == 0 and not values("netpath_stage_drops_per_second")
print(f"{path}: {len(series)} series in {len(fams)} families, parsed by prometheus_client")
PY
	[ "$bad" -eq 0 ] || np_fail "Prometheus output $1 is wrong"
}

# ---- Prometheus: stdout, sampled ----
np_pair h1 h2
ip netns exec "$NS_B" "$NETPATH" doctor vb --format prometheus --interval 0.5 \
	> "$NP_TMP/out.prom" 2> "$NP_TMP/err"
rc=$?
[ "$rc" -le 2 ] || np_fail "--format prometheus exited $rc: $(cat "$NP_TMP/err")"
prom_check "$NP_TMP/out.prom" vb 1

# ---- Prometheus: -o FILE into a textfile directory, replaced atomically ----
mkdir "$NP_TMP/textfile"
out="$NP_TMP/textfile/netpath-vb.prom"
echo "old" > "$out"
ip netns exec "$NS_B" "$NETPATH" doctor vb --format prometheus --interval 0 -o "$out" \
	> "$NP_TMP/stdout" 2> "$NP_TMP/err"
rc=$?
[ "$rc" -le 2 ] || np_fail "-o exited $rc: $(cat "$NP_TMP/err")"
[ ! -s "$NP_TMP/stdout" ] || np_fail "-o FILE also wrote to stdout"
prom_check "$out" vb 0
[ "$(ls -A "$NP_TMP/textfile")" = "netpath-vb.prom" ] ||
	np_fail "temp files left behind: $(ls -A "$NP_TMP/textfile")"
perm=$(stat -c %a "$out")
[ "$perm" = "$(printf '%o' $((0644 & ~$(umask))))" ] || np_fail "mode $perm, not 0644 less umask"

# A run that cannot diagnose must not touch the file (exit 3, one-line reason).
cp "$out" "$NP_TMP/before.prom"
ip netns exec "$NS_B" "$NETPATH" doctor no-such-if0 --format prometheus -o "$out" \
	2> "$NP_TMP/err"
[ $? -eq 3 ] || np_fail "an unknown interface with -o must exit 3"
cmp -s "$out" "$NP_TMP/before.prom" || np_fail "a failed run changed $out"
[ "$(ls -A "$NP_TMP/textfile")" = "netpath-vb.prom" ] || np_fail "a failed run left files"

# Paths -o refuses, with exit 3 and the path in the reason: a missing directory (never
# created), a symlink (never followed: its target stays as it was), a device.
ip netns exec "$NS_B" "$NETPATH" doctor vb --format prometheus --interval 0 \
	-o "$NP_TMP/missing/x.prom" 2> "$NP_TMP/err"
[ $? -eq 3 ] || np_fail "-o into a missing directory must exit 3"
grep -q "missing/x.prom" "$NP_TMP/err" || np_fail "unclear: $(cat "$NP_TMP/err")"
[ ! -e "$NP_TMP/missing" ] || np_fail "-o created a directory"
echo "target" > "$NP_TMP/target"
ln -s "$NP_TMP/target" "$NP_TMP/textfile/link.prom"
ip netns exec "$NS_B" "$NETPATH" doctor vb --format prometheus --interval 0 \
	-o "$NP_TMP/textfile/link.prom" 2> "$NP_TMP/err"
[ $? -eq 3 ] || np_fail "-o through a symlink must exit 3"
[ "$(cat "$NP_TMP/target")" = "target" ] || np_fail "-o wrote through a symlink"
[ -L "$NP_TMP/textfile/link.prom" ] || np_fail "-o replaced the symlink"
rm -f "$NP_TMP/textfile/link.prom"
ip netns exec "$NS_B" "$NETPATH" doctor vb --format prometheus --interval 0 -o /dev/null \
	2> "$NP_TMP/err"
[ $? -eq 3 ] || np_fail "-o /dev/null must be refused (exit 3)"
[ -c /dev/null ] || np_fail "/dev/null is no longer a device"

# ---- Nagios: healthy veth, then unknown ----
ip netns exec "$NS_B" "$NETPATH" doctor vb --nagios --interval 0.5 > "$NP_TMP/nagios" \
	2> "$NP_TMP/err"
rc=$?
head -1 "$NP_TMP/nagios" | grep -q "^NETPATH OK - " ||
	np_fail "healthy veth: $(head -1 "$NP_TMP/nagios") (rc $rc)"
[ "$rc" -eq 0 ] || np_fail "healthy veth: exit $rc, expected 0"
head -1 "$NP_TMP/nagios" | grep -Eq " \| 'interval'=0\.[0-9]+s;;;0 " ||
	np_fail "no perfdata: $(head -1 "$NP_TMP/nagios")"

ip netns exec "$NS_B" "$NETPATH" doctor no-such-if0 --nagios > "$NP_TMP/nagios" 2> "$NP_TMP/err"
rc=$?
[ "$rc" -eq 3 ] || np_fail "--nagios on an unknown interface: exit $rc, expected 3"
grep -q "^NETPATH UNKNOWN - .*no-such-if0" "$NP_TMP/nagios" ||
	np_fail "no UNKNOWN status line: $(cat "$NP_TMP/nagios")"

# ---- Nagios: SIGTERM (a monitoring system's own timeout) and -t: UNKNOWN, exit 3 ----
# A long interval: on a loaded host the wait below can take seconds, and a run that ended by
# itself before the signal came would exit 0 (seen once under load with --interval 5).
ip netns exec "$NS_B" "$NETPATH" doctor vb --nagios --interval 60 > "$NP_TMP/nagios" \
	2> "$NP_TMP/err" &
pid=$!
# End it once the deadline is armed: it catches SIGALRM (14) then, after its own SIGTERM
# handler. SIGTERM alone is caught earlier by the cleanup guard (a different line), and, before
# the exec, by this shell's trap.
np_wait_until 5 "netpath doctor's deadline armed" np_catches "$pid" 14
kill -TERM "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 3 ] || np_fail "--nagios ended by SIGTERM: exit $rc, expected 3"
[ "$(cat "$NP_TMP/nagios")" = "NETPATH UNKNOWN - terminated by SIGTERM" ] ||
	np_fail "--nagios ended by SIGTERM printed: $(cat "$NP_TMP/nagios")"
ip netns exec "$NS_B" "$NETPATH" doctor vb --nagios --interval 0 --timeout 1 > "$NP_TMP/nagios" \
	2> "$NP_TMP/err"
[ $? -le 2 ] || np_fail "--timeout 1 with --interval 0 timed out: $(cat "$NP_TMP/nagios")"

# ---- Nagios: a UDP receiver that never reads, flooded ----
np_pair snd rcv
np_traffic "$NS_B" sink udp-sink 198.18.0.2 9000 --rcvbuf 4096
np_traffic "$NS_A" flood udp-flood 198.18.0.2 9000
np_wait_counter "$NS_B" UdpRcvbufErrors
ip netns exec "$NS_B" "$NETPATH" doctor vb --nagios --interval 2 > "$NP_TMP/nagios" \
	2> "$NP_TMP/err"
rc=$?
bad=0
"$PY" - "$NP_TMP/nagios" "$rc" <<'PY' || bad=1
import re, sys
lines = open(sys.argv[1]).read().splitlines()
rc = int(sys.argv[2])
first, long_out = lines[0], lines[1:]
m = re.match(r"NETPATH (WARNING|CRITICAL) - vb: (.*) \| (.*)$", first)
assert m, f"status line: {first}"
word, text, perf = m.groups()
assert rc == {"WARNING": 1, "CRITICAL": 2}[word], f"exit {rc} for {word}"
assert first.count("|") == 1
# perfdata: 'label'=value[UOM];[warn];[crit];[min];[max], plugin guidelines' units only
# with warn and crit as Monitoring Plugins ranges ([@][start:][end], start may be ~)
num = r"-?[0-9]+(\.[0-9]+)?"
rng = rf"@?(({num}|~):)?({num})?"
item = re.compile(rf"'[^'=]+'={num}(s|%|B|KB|MB|TB|c)?(;{rng}(;{rng}(;({num})?(;({num})?)?)?)?)?$")
perfs = perf.split(" ")
for p in perfs:
    assert item.match(p), f"perfdata item {p!r}"
sock = [p for p in perfs if p.startswith("'socket_drops_per_s'=")]
assert sock and float(sock[0].split("=")[1].split(";")[0]) > 0, f"socket drops: {sock}"
# Long output: one line per warning/critical finding; the worst of them is the status.
sev = {}
for l in long_out:
    lm = re.match(r"(WARNING|CRITICAL) (\S+) \[(\w+)\]: ", l)
    assert lm, f"long output line {l!r}"
    sev[lm.group(2)] = lm.group(1)
assert word == ("CRITICAL" if "CRITICAL" in sev.values() else "WARNING")
# The flood is far above socket.udp-rcvbuf's critical threshold (100 drops/s): the socket
# finding is among the worst, and the status line names it (unless 3 worse-ranked ones fill it).
assert sev.get("socket.udp-rcvbuf") == word, f"socket finding not at the worst: {sev}"
if "more " + word.lower() not in text:
    assert "socket.udp-rcvbuf: " in text, f"socket finding not named: {text}"
print("status:", first[:160])
PY
[ "$bad" -eq 0 ] || np_fail "Nagios output under flood: $(cat "$NP_TMP/nagios")"
echo "PASS"
