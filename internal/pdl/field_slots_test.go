package pdl

import "testing"

// TestFieldIndex holds fieldIndex to the map it stands for, for every
// field name of every record and for names that are no field.
func TestFieldIndex(t *testing.T) {
	t.Parallel()
	others := []string{"", "x", "owners ", "Owners", "ownerTypes2", "a\x00", "\xff"}
	for name, r := range compiled().records {
		if len(r.index) != len(r.fields) {
			continue // conformsRecord does not look these up
		}
		names := append([]string(nil), others...)
		for _, f := range r.fields {
			names = append(names, f.name, f.name+"s", f.name[:len(f.name)-1])
		}
		for _, n := range names {
			want, wantOK := r.index[n]
			if got, ok := r.fieldIndex([]byte(n)); got != want || ok != wantOK {
				t.Fatalf("%s: fieldIndex(%q) = %d, %v; want %d, %v", name, n, got, ok, want, wantOK)
			}
		}
	}
}
