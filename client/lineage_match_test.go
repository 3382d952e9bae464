package client

import (
	"slices"
	"strings"
	"testing"
)

// TestSimilarity: Similarity equals Python's
// difflib.SequenceMatcher(None, a, b).ratio() on values computed with
// CPython 3 (including the asymmetry difflib documents and its autojunk
// of popular characters in a b of 200 or more characters).
func TestSimilarity(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		a, b string
		want float64
	}{
		{"tide", "diet", 0.25},
		{"diet", "tide", 0.5},
		{"abcd", "bcde", 0.75},
		{"customerid", "customer_id", 0.9523809523809523},
		{"userid", "usersid", 0.9230769230769231},
		{"emailaddress", "emailaddr", 0.8571428571428571},
		{"amount", "amt", 0.6666666666666666},
		{"naïve_col", "naive_col", 0.8888888888888888},
		{"ordertotal", "orderttl", 0.8888888888888888},
		{"", "", 1},
		{"abc", "", 0},
		// autojunk: without it these are 0.995, 0.955 and 0.975.
		{strings.Repeat("ab", 150), strings.Repeat("ab", 100) + "x" + strings.Repeat("ba", 50), 0.6655574043261231},
		{strings.Repeat("x", 10) + strings.Repeat("abc", 70), strings.Repeat("abc", 70) + strings.Repeat("y", 10), 0},
		{strings.Repeat("hello world ", 20), strings.Repeat("world hello ", 20), 0},
	} {
		if got := Similarity(tc.a, tc.b); got != tc.want {
			t.Errorf("Similarity(%.20q, %.20q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestMatchColumns: the strict and fuzzy rules of DataHub's Python SDK,
// including get_close_matches' choice among equally similar candidates
// (the greatest string); the expected pairs are what the Python rule gives
// on the same names under CPython 3.
func TestMatchColumns(t *testing.T) {
	t.Parallel()
	ups := []string{"id", "Customer_Id", "email_address", "amount", "ab2", "ba2"}
	if got, want := MatchColumnsStrict(ups, []string{"ID", "customer_id", "emailaddress", "nope"}),
		[]ColumnLineage{{"id", "ID"}, {"Customer_Id", "customer_id"}}; !slices.Equal(got, want) {
		t.Errorf("strict: %v, want %v", got, want)
	}
	got := MatchColumnsFuzzy(ups, []string{"id", "CUSTOMERID", "email_addr", "amt", "ab"})
	want := []ColumnLineage{{"id", "id"}, {"Customer_Id", "CUSTOMERID"}, {"email_address", "email_addr"}, {"ab2", "ab"}}
	if !slices.Equal(got, want) {
		t.Errorf("fuzzy: %v, want %v", got, want)
	}
	// "ab" is 0.8 similar to "ab2" (the cut-off), less to "ba2".
	if got := MatchColumnsFuzzy([]string{"ba2", "ab2"}, []string{"ab"}); !slices.Equal(got, []ColumnLineage{{"ab2", "ab"}}) {
		t.Errorf("fuzzy ab: %v", got)
	}
	// Equal similarity: difflib keeps the greatest candidate.
	if got := MatchColumnsFuzzy([]string{"abcdx", "abcdy"}, []string{"abcd"}); !slices.Equal(got, []ColumnLineage{{"abcdy", "abcd"}}) {
		t.Errorf("fuzzy tie: %v", got)
	}
}
