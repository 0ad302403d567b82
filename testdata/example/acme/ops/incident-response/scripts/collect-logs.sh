#!/usr/bin/env bash
# collect-logs.sh - copy the last hour of service logs from one or more hosts
# into ./incident-logs/<timestamp>/ for attaching to an incident ticket.
#
# Requirements
#
#   The hosts must run the acme-logship agent. On a fresh host install it with:
#
#   ```sh
#   curl -fsSL https://example.com/install.sh | sh
#   ```
#
# Usage
#
#   collect-logs.sh HOST [HOST...]
#
set -euo pipefail

if [ "$#" -eq 0 ]; then
  echo "usage: collect-logs.sh HOST [HOST...]" >&2
  exit 2
fi

since="${SINCE:-1 hour ago}"
out="incident-logs/$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out"

for host in "$@"; do
  echo "collecting from $host" >&2
  if ! ssh -o BatchMode=yes "$host" \
      "journalctl --since '$since' --no-pager -o short-iso" >"$out/$host.log"; then
    echo "warning: could not read logs from $host" >&2
  fi
done

tar -czf "$out.tar.gz" -C "$(dirname "$out")" "$(basename "$out")"
echo "$out.tar.gz"
