package emitter

import "testing"

// TestV3ItemsKeptCleared checks that a list of items given back comes out
// again with zero items only: nothing of a call's items (URNs, encodings)
// reaches the next call.
func TestV3ItemsKeptCleared(t *testing.T) {
	for range 4 { // sync.Pool may drop a list; any list it gives must be clear
		l := getV3Items(3)
		if len(*l) != 3 {
			t.Fatalf("len %d, want 3", len(*l))
		}
		for i := range *l {
			if (*l)[i].urn != "" || (*l)[i].enc != nil || (*l)[i].kind != 0 {
				t.Fatalf("item %d not zero: %+v", i, (*l)[i])
			}
			(*l)[i] = v3Encoded{kind: v3Batch, urn: "urn:li:corpuser:a", enc: []byte("{}"), path: "/x"}
		}
		putV3Items(l)
		l = getV3Items(2)
		for i := range (*l)[:cap(*l)] {
			if (*l)[:cap(*l)][i].urn != "" || (*l)[:cap(*l)][i].enc != nil {
				t.Fatalf("kept item %d not cleared", i)
			}
		}
		putV3Items(l)
	}
}
