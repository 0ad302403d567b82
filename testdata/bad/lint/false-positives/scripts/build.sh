#!/usr/bin/env bash
# build.sh - build the docs site into ./build (the default is a local folder).
set -euo pipefail
HOST="${DOCS_HOST:-docs.example.com}"
if ! timeout 2 bash -c "</dev/tcp/$HOST/443"; then
  echo "warning: $HOST is unreachable; building without link checks" >&2
fi
rm -rf ./build
hugo --minify --destination ./build
echo "sha256 of index: $(sha256sum build/index.html | cut -c1-64)"
