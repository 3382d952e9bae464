package graphql

import "testing"

// TestHandlerOperationName checks that the handler's kept names are the
// package function's, for a body seen again and for bodies that differ
// only after the part a name is read from.
func TestHandlerOperationName(t *testing.T) {
	t.Parallel()
	h, err := New(nil)
	if err != nil {
		t.Fatal(err)
	}
	bodies := []string{
		`{"query":"query a { x } query b { y }","operationName":"b"}`,
		`{"query":"query a { x } query b { y }","operationName":"a"}`,
		`{"query":"query a { x } query b { y }"}`,
		`{"query":"query getDataset { x }"}`,
		`{`,
	}
	for round := range 3 { // the second and third rounds read the kept names
		for _, b := range bodies {
			body := []byte(b)
			if got, want := h.OperationName(body), OperationName(body); got != want {
				t.Errorf("round %d: OperationName(%s) = %q, want %q", round, b, got, want)
			}
			body[0] = 'x' // the handler keeps no reference to the caller's bytes
		}
	}
}
