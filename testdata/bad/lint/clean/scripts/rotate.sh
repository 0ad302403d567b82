#!/bin/sh
# rotate.sh DIR - gzip *.log files in DIR that are older than one day.
set -eu
dir="${1:?usage: rotate.sh DIR}"
find "$dir" -name '*.log' -mtime +0 -exec gzip -9 {} +
echo "compressed old logs in $dir"
