package emitter

import "testing"

// TestJoined: two encodings join only when the second follows the first
// in the same memory after a comma.
func TestJoined(t *testing.T) {
	t.Parallel()
	buf := []byte(`{"a":1},{"b":2},{"c":3};{"d":4}`)
	a, b, c, d := buf[0:7], buf[8:15], buf[16:23], buf[24:31]
	run, ok := joined(a, b)
	if !ok || string(run) != `{"a":1},{"b":2}` {
		t.Fatalf("joined(a, b) = %q, %v", run, ok)
	}
	if run, ok = joined(run, c); !ok || string(run) != `{"a":1},{"b":2},{"c":3}` {
		t.Fatalf("joined(ab, c) = %q, %v", run, ok)
	}
	for _, tt := range []struct {
		name string
		x, y []byte
	}{
		{"not next", a, c},
		{"after a semicolon", c, d},
		{"backwards", b, a},
		{"a copy", a, []byte(`{"b":2}`)},
		{"capacity cut", buf[0:7:8], b},
		{"empty", a, buf[8:8]},
	} {
		if run, ok := joined(tt.x, tt.y); ok {
			t.Errorf("%s: joined = %q, want no join", tt.name, run)
		}
	}
}
