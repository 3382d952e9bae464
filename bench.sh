#!/usr/bin/env bash
# Measures datahub-go against its performance targets and prints one table.
#
# Runs the go test benchmarks (each -count times, default 5) on this machine
# and reports, per target, the median over the runs, the ratio the target is
# stated in, and PASS or MISS. Ratios come from interleaved benchmarks (the
# two sides take turns in one run), so machine noise hits both sides alike.
#
# Usage: ./bench.sh            (about 10 minutes on 2 cores)
#        COUNT=10 BENCHTIME=3s ./bench.sh
# The raw benchmark output is kept in $OUT (default: a temporary file).
set -euo pipefail
cd "$(dirname "$0")"

count=${COUNT:-5}
benchtime=${BENCHTIME:-2s}
out=${OUT:-$(mktemp -t datahub-go-bench.XXXXXX)}

run() { # package, benchmark regexp, and a suffix for its benchmarks' names (optional); a failed benchmark leaves its rows NO DATA, not the table unprinted
  go test -run '^$' -bench "$2" -benchtime "$benchtime" -count "$count" "$1" | sed -E "s/^(Benchmark[A-Za-z]+)/\1${3:-}/" |
    tee -a "$out" | grep -E '^(Benchmark|ok|FAIL|---)' || true
}

# The CPU a search hit is compared with the mock at search_base_commit, the
# last commit before search answers showed their hits from the index:
# BenchmarkSearchHits of today (its file copied there) runs on that code and
# on the current code in turns, count times each, in this run; the base's
# runs are named BenchmarkSearchHitsBase. SEARCH_HIT_BASE (ns of CPU a hit)
# gives a fixed base instead and skips the old build, as does a checkout
# without that commit.
search_base_commit=905e719
search_dir=
cleanup() {
  rm -rf "${mock_dir:-}"
  if [ -n "$search_dir" ]; then
    git worktree remove --force "$search_dir/wt" 2>/dev/null || true
    rm -rf "$search_dir"
  fi
}
trap cleanup EXIT
search_hits() {
  if [ -n "${SEARCH_HIT_BASE:-}" ] || ! git cat-file -e "$search_base_commit^{commit}" 2>/dev/null; then
    run ./mockserver '^BenchmarkSearchHits$'
    return
  fi
  search_dir=$(mktemp -d -t datahub-go-search.XXXXXX)
  if ! git worktree add --detach -q "$search_dir/wt" "$search_base_commit" ||
    ! cp mockserver/bench_searchhits_test.go "$search_dir/wt/mockserver/" ||
    ! (cd "$search_dir/wt" && go test -c -o "$search_dir/base.test" ./mockserver) ||
    ! go test -c -o "$search_dir/now.test" ./mockserver; then
    echo "bench.sh: could not build $search_base_commit's search benchmark; the per-hit row has no base" >&2
    run ./mockserver '^BenchmarkSearchHits$'
    return
  fi
  one() { # test binary, name its lines get
    (cd mockserver && "$1" -test.run '^$' -test.bench '^BenchmarkSearchHits$' -test.benchtime "$benchtime") |
      sed "s/^BenchmarkSearchHits-/$2-/" | tee -a "$out" | grep -E '^(Benchmark|FAIL|---)' || true
  }
  for ((i = 1; i <= count; i++)); do # in turns, each first every other time
    if ((i % 2)); then
      one "$search_dir/base.test" BenchmarkSearchHitsBase
      one "$search_dir/now.test" BenchmarkSearchHits
    else
      one "$search_dir/now.test" BenchmarkSearchHits
      one "$search_dir/base.test" BenchmarkSearchHitsBase
    fi
  done
}

: >"$out"
echo "go test benchmarks: -count $count -benchtime $benchtime; raw output in $out"
run ./emitter '^(BenchmarkEmitOneInterleaved|BenchmarkEmitBatched|BenchmarkEmitBatchedInterleaved|BenchmarkEmitBatchedEndpoints|BenchmarkAsync|BenchmarkAsyncInterleaved|BenchmarkEmitModes|BenchmarkTurnsAA)$'
# The mock's benchmarks run in four processes: the scale benchmarks share
# pre-loaded servers (1,000 to 100,000 datasets, about 800 MB of live heap)
# that live as long as their process, and every benchmark after them there
# would pay for collecting that heap.
run ./mockserver '^(BenchmarkIngestHTTP|BenchmarkIngestHTTPConcurrent|BenchmarkIngestHTTPConcurrentDistinct|BenchmarkIngestHTTPConcurrentUnchanged|BenchmarkIngestProposal)$'
run ./mockserver '^(BenchmarkGraphQLFeatureTable|BenchmarkGraphQLFeatureTableHandlerUncached|BenchmarkRESTAspectRead)$'
search_hits
run ./mockserver '^(BenchmarkUpsertReadScale|BenchmarkSearchScale|BenchmarkOpenAPIListPage)$'
run ./client '^BenchmarkAddFeatureToTableContended(Patch)?$'
# The side-by-side emitter benchmarks again, against the mock in a process
# of its own, as a real server is (BENCH_MOCK: see emitter's benchMock);
# their names get "Process" appended. The process CPU they report is then
# the client's alone.
mock_dir=$(mktemp -d -t datahub-go-mock.XXXXXX)
if go build -o "$mock_dir/datahub-mock" ./mockserver/cmd/datahub-mock; then
  BENCH_MOCK="$mock_dir/datahub-mock" run ./emitter '^(BenchmarkEmitBatchedInterleaved|BenchmarkAsyncInterleaved|BenchmarkTurnsAA)$' Process
fi

# A fixed base for the CPU a search hit (see search_hits), 0 for none.
search_hit_base=${SEARCH_HIT_BASE:-0}

awk -v count="$count" -v searchHitBase="$search_hit_base" -v baseCommit="$search_base_commit" '
  # Every "value unit" pair of a benchmark line, keyed by name and unit.
  /^Benchmark/ {
    name = $1; sub(/-[0-9]+$/, "", name)
    for (i = 3; i < NF; i += 2) { k = name SUBSEP $(i+1); n[k]++; v[k, n[k]] = $i }
  }
  function median(name, unit,    k, m, i, j, t, a) {
    k = name SUBSEP unit; m = n[k]
    if (m == 0) return "NaN"
    for (i = 1; i <= m; i++) a[i] = v[k, i]
    for (i = 2; i <= m; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
    return (m % 2) ? a[(m+1)/2] : (a[m/2] + a[m/2+1]) / 2
  }
  # The lowest and the highest figure of a benchmark, as "low-high".
  function spread(name, unit,    k, m, i, lo, hi) {
    k = name SUBSEP unit; m = n[k]
    if (m == 0) return "NaN"
    lo = hi = v[k, 1]
    for (i = 2; i <= m; i++) { if (v[k, i] < lo) lo = v[k, i]; if (v[k, i] > hi) hi = v[k, i] }
    return sprintf("%.2f-%.2f", lo, hi)
  }
  # A target whose benchmark gave no figure (median "NaN") is neither met nor missed.
  function verdict(ok, x) { return (x == "NaN") ? "NO DATA" : ok ? "PASS" : "MISS" }
  function row(target, measured, ratio, goal, result) {
    printf "%-42s %-44s %-16s %-17s %s\n", target, measured, ratio, goal, result
  }
  END {
    row("target", "measured (median of " count ")", "ratio", "goal", "result")
    row("------", "--------", "-----", "----", "------")

    e = median("BenchmarkEmitOneInterleaved", "emit-ns/op"); r = median("BenchmarkEmitOneInterleaved", "raw-ns/op")
    q = median("BenchmarkEmitOneInterleaved", "raw/emit")
    row("(1) emitter vs raw net/http, one proposal", sprintf("emit %.1f us, raw %.1f us", e/1000, r/1000),
        sprintf("raw/emit %.2f", q), "raw/emit >= 0.9", verdict(q >= 0.9, q))

    b = median("BenchmarkEmitBatched", "proposals/s")
    row("(2) batched emit to the mock (200/batch)", sprintf("%.0f proposals/s", b),
        sprintf("%.2f of goal", b/50000), ">= 50000/s", verdict(b >= 50000, b))

    e = median("BenchmarkEmitBatchedInterleaved", "emit-proposals/s"); r = median("BenchmarkEmitBatchedInterleaved", "raw-proposals/s")
    q = median("BenchmarkEmitBatchedInterleaved", "raw/emit")
    row("(2a) batched emit vs raw net/http, 200/req", sprintf("emit %.0f/s, raw %.0f/s", e, r),
        sprintf("raw/emit %.2f", q), "raw/emit >= 0.9", verdict(q >= 0.9, q))
    e = median("BenchmarkAsyncInterleaved", "async-proposals/s"); r = median("BenchmarkAsyncInterleaved", "raw-proposals/s")
    q = median("BenchmarkAsyncInterleaved", "raw/async")
    row("(2a) async emitter vs raw net/http loop", sprintf("async %.0f/s, raw %.0f/s", e, r),
        sprintf("raw/async %.2f", q), "raw/async >= 0.9", verdict(q >= 0.9, q))

    o = median("BenchmarkEmitBatchedEndpoints", "openapi-proposals/s"); l = median("BenchmarkEmitBatchedEndpoints", "restli-proposals/s")
    q = median("BenchmarkEmitBatchedEndpoints", "restli/openapi"); c = median("BenchmarkEmitBatchedEndpoints", "restli/openapi-cpu")
    row("(2b) batched emit, OpenAPI vs Rest.li", sprintf("OpenAPI %.0f/s, Rest.li %.0f/s, CPU restli/openapi %.2f", o, l, c),
        sprintf("restli/openapi %.2f", q), "restli/openapi >= 1", verdict(q >= 1, q))

    # Not a target: the interleaved harness with the same work on both
    # sides. Its median should be near 1 and its spread is the noise the
    # ratios of (2a) and (2b) carry in this run.
    q = median("BenchmarkTurnsAA", "second/first")
    row("(check) interleaved harness, A/A", sprintf("second/first of %d runs: %s", n["BenchmarkTurnsAA" SUBSEP "second/first"], spread("BenchmarkTurnsAA", "second/first")),
        sprintf("A/A %.2f", q), "about 1", (q == "NaN") ? "NO DATA" : "info")

    # Not targets: (2a) and the A/A check with the mock in its own process.
    # CPU is then the client process alone, a round of 200 (batched) or
    # 1000 (async) proposals.
    q = median("BenchmarkEmitBatchedInterleavedProcess", "raw/emit")
    e = median("BenchmarkEmitBatchedInterleavedProcess", "emit-cpu-us/round"); r = median("BenchmarkEmitBatchedInterleavedProcess", "raw-cpu-us/round")
    row("    (2a) batched, mock in its own process", sprintf("client CPU/round: emit %.0f us, raw %.0f us", e, r),
        sprintf("raw/emit %.2f", q), "(information)", "-")
    q = median("BenchmarkAsyncInterleavedProcess", "raw/async")
    e = median("BenchmarkAsyncInterleavedProcess", "async-cpu-us/round"); r = median("BenchmarkAsyncInterleavedProcess", "raw-cpu-us/round")
    row("    (2a) async, mock in its own process", sprintf("client CPU/round: async %.0f us, raw %.0f us", e, r),
        sprintf("raw/async %.2f", q), "(information)", "-")
    q = median("BenchmarkTurnsAAProcess", "second/first")
    row("    (check) A/A, mock in its own process", sprintf("second/first of %d runs: %s", n["BenchmarkTurnsAAProcess" SUBSEP "second/first"], spread("BenchmarkTurnsAAProcess", "second/first")),
        sprintf("A/A %.2f", q), "about 1", (q == "NaN") ? "NO DATA" : "info")

    w = median("BenchmarkEmitModes", "asyncwait-proposals/s"); y = median("BenchmarkEmitModes", "sync-proposals/s")
    q = median("BenchmarkEmitModes", "async/sync")
    row("(2c) ASYNC_WAIT vs SYNC_PRIMARY, 16 gor.", sprintf("ASYNC_WAIT %.0f/s, SYNC_PRIMARY %.0f/s", w, y),
        sprintf("async/sync %.2f", q), "async/sync >= 0.33", verdict(q >= 1/3, q))

    split("single batch200", kinds, " ")
    for (i = 1; i <= 2; i++) {
      bn = "BenchmarkIngestHTTP/" kinds[i]
      m = median(bn, "mock-ns/op"); z = median(bn, "noop-ns/op"); q = median(bn, "mock/noop"); p = median(bn, "mock-proposals/s")
      goal = (kinds[i] == "single") ? 0.5 : 0.25
      row("(3) mock ingest vs no-op, HTTP, " kinds[i], sprintf("mock %.1f us, no-op %.1f us (%.0f/s)", m/1000, z/1000, p),
          sprintf("mock/noop %.2f", q), sprintf("mock/noop >= %g", goal), verdict(q >= goal, q))
    }
    p = median("BenchmarkIngestHTTPConcurrent", "mock-proposals/s"); z = median("BenchmarkIngestHTTPConcurrent", "noop-proposals/s")
    q = median("BenchmarkIngestHTTPConcurrent", "mock/noop")
    row("(3) mock ingest vs no-op, 4 clients x 200", sprintf("mock %.0f/s, no-op %.0f/s", p, z),
        sprintf("mock/noop %.2f", q), "mock/noop >= 0.25", verdict(q >= 0.25, q))
    p = median("BenchmarkIngestHTTPConcurrentDistinct", "mock-proposals/s"); z = median("BenchmarkIngestHTTPConcurrentDistinct", "noop-proposals/s")
    q = median("BenchmarkIngestHTTPConcurrentDistinct", "mock/noop")
    row("(3) the same, every proposal its own value", sprintf("mock %.0f/s, no-op %.0f/s", p, z),
        sprintf("mock/noop %.2f", q), "mock/noop >= 0.25", verdict(q >= 0.25, q))
    p = median("BenchmarkIngestHTTPConcurrentUnchanged", "mock-proposals/s"); z = median("BenchmarkIngestHTTPConcurrentUnchanged", "noop-proposals/s")
    q = median("BenchmarkIngestHTTPConcurrentUnchanged", "mock/noop")
    row("    the same bodies again (no new versions)", sprintf("mock %.0f/s, no-op %.0f/s", p, z),
        sprintf("mock/noop %.2f", q), "(information)", "-")
    m = median("BenchmarkIngestProposal/mock-versioned", "ns/op"); z = median("BenchmarkIngestProposal/noop", "ns/op")
    row("    in the handler (no HTTP), versioning", sprintf("mock %.1f us, no-op %.1f us", m/1000, z/1000),
        sprintf("mock/noop %.2f", z/m), "(information)", "-")

    m = median("BenchmarkUpsertReadScale", "1k-ns/op"); z = median("BenchmarkUpsertReadScale", "100k-ns/op")
    q = median("BenchmarkUpsertReadScale", "ratio-100k/1k")
    row("(4) UPSERT + GET /entitiesV2, 100k vs 1k", sprintf("1k entities %.1f us, 100k %.1f us", m/1000, z/1000),
        sprintf("100k/1k %.2f", q), "100k/1k <= 2", verdict(q <= 2, q))

    m = median("BenchmarkSearchScale", "1k-ns/op"); z = median("BenchmarkSearchScale", "100k-ns/op")
    q = median("BenchmarkSearchScale", "ratio-100k/1k")
    row("(6) selective search (10 hits), 100k vs 1k", sprintf("1k entities %.1f us, 100k %.1f us", m/1000, z/1000),
        sprintf("100k/1k %.2f", q), "100k/1k <= 2", verdict(q <= 2, q))

    m = median("BenchmarkSearchHits", "1k-ns/op"); z = median("BenchmarkSearchHits", "100k-ns/op")
    q = median("BenchmarkSearchHits", "ratio-100k/1k"); c = median("BenchmarkSearchHits", "cpu-ratio-100k/1k")
    row("(6a) search of 100 shown hits, 100k vs 1k", sprintf("1k entities %.1f us, 100k %.1f us", m/1000, z/1000),
        sprintf("100k/1k %.2f (CPU %.2f)", q, c), "100k/1k <= 2", verdict(q <= 2, q))
    h = median("BenchmarkSearchHits", "100k-cpu-ns/hit"); a = median("BenchmarkSearchHits", "allocs/op")
    base = (searchHitBase > 0) ? searchHitBase : median("BenchmarkSearchHitsBase", "100k-cpu-ns/hit")
    then = (base == "NaN") ? "no base" : sprintf("then %.1f us", base/1000)
    row("    CPU per hit over 100k vs " baseCommit, sprintf("now %.1f us (%.1f allocs), %s", h/1000, a/200, then),
        (base == "NaN") ? "no base" : sprintf("then/now %.2f", base/h), "then/now >= 2", verdict(base/h >= 2, base))

    split("first middle sorted", pages, " ")
    for (i = 1; i <= 3; i++) {
      m = median("BenchmarkOpenAPIListPage/" pages[i] "/n=10000", "ns/op"); z = median("BenchmarkOpenAPIListPage/" pages[i] "/n=100000", "ns/op")
      q = (m == "NaN" || z == "NaN") ? "NaN" : z/m
      row("(7) v3 list page of 10, " pages[i] ", 100k vs 10k", sprintf("10k entities %.1f us, 100k %.1f us", m/1000, z/1000),
          sprintf("100k/10k %.2f", q), "100k/10k <= 2", verdict(q <= 2, q))
    }

    a = median("BenchmarkAsync", "proposals/s")
    row("async emitter (4 goroutines, 4 workers)", sprintf("%.0f proposals/s", a), "-", "(information)", "-")

    g = median("BenchmarkGraphQLFeatureTable", "queries/s"); c = median("BenchmarkGraphQLFeatureTable", "cpu-µs/query")
    row("(5) mock GraphQL mlFeatureTable, 16 conns", sprintf("%.0f queries/s, %.0f CPU-us/query", g, c),
        sprintf("%.2f of goal", g/25000), ">= 25000/s", verdict(g >= 25000, g))
    r = median("BenchmarkRESTAspectRead", "reads/s")
    row("    beside the REST aspect read, 16 conns", sprintf("REST %.0f reads/s", r), sprintf("graphql/rest %.2f", g/r),
        "graphql/rest >= 0.4", verdict(g/r >= 0.4, g/r))
    u = median("BenchmarkGraphQLFeatureTableHandlerUncached", "ns/op")
    row("    each query different (no kept answer)", sprintf("%.1f us a query in the handler, no HTTP", u/1000), "-", "(information)", "-")
    c = median("BenchmarkAddFeatureToTableContended", "ns/op"); cw = median("BenchmarkAddFeatureToTableContended", "writes/add")
    p = median("BenchmarkAddFeatureToTableContendedPatch", "ns/op"); pw = median("BenchmarkAddFeatureToTableContendedPatch", "writes/add")
    row("64 AddFeatureToTable on one table", sprintf("cond %.0f ms %.2f w/add, patch %.0f ms %.2f", c/1e6, cw, p/1e6, pw),
        sprintf("cond/patch %.1f", c/p), "(information)", "-")
  }
' "$out"
