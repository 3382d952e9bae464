package client

import (
	"strings"
)

// fuzzyCutoff is the least similarity MatchFuzzy accepts, as DataHub's
// Python SDK asks difflib.get_close_matches for.
const fuzzyCutoff = 0.8

// MatchColumnsStrict pairs each downstream field path with the upstream
// one equal to it ignoring case ([MatchStrict]), in the order of
// downstream. When upstream has several paths equal ignoring case, the
// first is taken.
func MatchColumnsStrict(upstream, downstream []string) []ColumnLineage {
	byLower := map[string]string{}
	for _, u := range upstream {
		if _, ok := byLower[strings.ToLower(u)]; !ok {
			byLower[strings.ToLower(u)] = u
		}
	}
	var out []ColumnLineage
	for _, d := range downstream {
		if u, ok := byLower[strings.ToLower(d)]; ok {
			out = append(out, ColumnLineage{Upstream: u, Downstream: d})
		}
	}
	return out
}

// MatchColumnsFuzzy pairs each downstream field path with an upstream one
// ([MatchFuzzy]), in the order of downstream: the same path; failing
// that, the upstream path equal to it once both are lower-cased and
// stripped of "_"; failing that, the upstream path whose normalized form
// is most similar to the downstream's normalized form ([Similarity] at
// least 0.8; among equally similar ones the greatest normalized form, as
// difflib.get_close_matches picks). A downstream path with no match is
// left out. When several upstream paths normalize alike, the first is
// taken.
func MatchColumnsFuzzy(upstream, downstream []string) []ColumnLineage {
	normalize := func(s string) string { return strings.ReplaceAll(strings.ToLower(s), "_", "") }
	exact := map[string]bool{}
	byNorm := map[string]string{}
	var norms []string
	for _, u := range upstream {
		exact[u] = true
		n := normalize(u)
		if _, ok := byNorm[n]; !ok {
			byNorm[n] = u
			norms = append(norms, n)
		}
	}
	var out []ColumnLineage
	for _, d := range downstream {
		if exact[d] {
			out = append(out, ColumnLineage{Upstream: d, Downstream: d})
			continue
		}
		n := normalize(d)
		if u, ok := byNorm[n]; ok {
			out = append(out, ColumnLineage{Upstream: u, Downstream: d})
			continue
		}
		best, bestScore := "", -1.0
		for _, cand := range norms {
			// get_close_matches compares SequenceMatcher(a=candidate, b=word).
			score := Similarity(cand, n)
			if score < fuzzyCutoff {
				continue
			}
			if score > bestScore || score == bestScore && cand > best {
				best, bestScore = cand, score
			}
		}
		if bestScore >= 0 {
			out = append(out, ColumnLineage{Upstream: byNorm[best], Downstream: d})
		}
	}
	return out
}

// Similarity is Python's difflib.SequenceMatcher(None, a, b).ratio(): twice
// the number of characters (Unicode code points) in the matching blocks
// of a and b, divided by the total length of a and b (1 when both are
// empty). The blocks are found as difflib finds them: the longest common
// run (the earliest in a, then in b, among equally long ones), then the
// same on the parts left of and right of it, recursively; characters that
// occur more than len(b)/100+1 times in a b of 200 or more characters are
// "popular" and start no run (difflib's autojunk). Like difflib's, the
// ratio can differ when a and b are swapped.
func Similarity(a, b string) float64 {
	ra, rb := []rune(a), []rune(b)
	if len(ra)+len(rb) == 0 {
		return 1
	}
	m := newMatcher(ra, rb)
	return 2 * float64(m.matches()) / float64(len(ra)+len(rb))
}

// matcher holds what difflib's SequenceMatcher keeps of b: where each
// character occurs.
type matcher struct {
	a, b []rune
	b2j  map[rune][]int
}

func newMatcher(a, b []rune) *matcher {
	b2j := map[rune][]int{}
	for j, r := range b {
		b2j[r] = append(b2j[r], j)
	}
	if n := len(b); n >= 200 {
		ntest := n/100 + 1
		for r, js := range b2j {
			if len(js) > ntest {
				delete(b2j, r)
			}
		}
	}
	return &matcher{a: a, b: b, b2j: b2j}
}

// longest is difflib's find_longest_match on a[alo:ahi] and b[blo:bhi]
// (with no junk function: popular characters are extended over but start
// nothing).
func (m *matcher) longest(alo, ahi, blo, bhi int) (besti, bestj, bestsize int) {
	besti, bestj = alo, blo
	j2len := map[int]int{}
	for i := alo; i < ahi; i++ {
		next := map[int]int{}
		for _, j := range m.b2j[m.a[i]] {
			if j < blo {
				continue
			}
			if j >= bhi {
				break
			}
			k := j2len[j-1] + 1
			next[j] = k
			if k > bestsize {
				besti, bestj, bestsize = i-k+1, j-k+1, k
			}
		}
		j2len = next
	}
	for besti > alo && bestj > blo && m.a[besti-1] == m.b[bestj-1] {
		besti, bestj, bestsize = besti-1, bestj-1, bestsize+1
	}
	for besti+bestsize < ahi && bestj+bestsize < bhi && m.a[besti+bestsize] == m.b[bestj+bestsize] {
		bestsize++
	}
	return besti, bestj, bestsize
}

// matches is the total size of difflib's get_matching_blocks.
func (m *matcher) matches() int {
	type span struct{ alo, ahi, blo, bhi int }
	queue := []span{{0, len(m.a), 0, len(m.b)}}
	total := 0
	for len(queue) > 0 {
		s := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		i, j, k := m.longest(s.alo, s.ahi, s.blo, s.bhi)
		if k == 0 {
			continue
		}
		total += k
		if s.alo < i && s.blo < j {
			queue = append(queue, span{s.alo, i, s.blo, j})
		}
		if i+k < s.ahi && j+k < s.bhi {
			queue = append(queue, span{i + k, s.ahi, j + k, s.bhi})
		}
	}
	return total
}
