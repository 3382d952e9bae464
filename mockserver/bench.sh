#!/usr/bin/env bash
# Runs BenchmarkIngestProposal and prints the mock's cost per proposal as a
# multiple of a no-op handler reading the same request body.
# Usage: mockserver/bench.sh [benchtime]   (default 2s)
set -euo pipefail
cd "$(dirname "$0")"
out=$(go test -run '^$' -bench 'BenchmarkIngestProposal' -benchtime "${1:-2s}" -count 3 .)
echo "$out" | grep '^Benchmark'
echo "$out" | awk '
  /^BenchmarkIngestProposal\// {
    split($1, parts, "/"); name = parts[2]; sub(/-[0-9]+$/, "", name)
    sum[name] += $3; n[name]++
  }
  END {
    noop = sum["noop"] / n["noop"]
    for (k in sum) if (k != "noop") printf "%s: %.0f ns/op, %.1fx the no-op handler (%.0f ns/op)\n", k, sum[k]/n[k], (sum[k]/n[k])/noop, noop
  }'
