package patch

import "testing"

// TestJavaDouble checks the allowed-value keys against Java's
// Double.toString, the text DataHub's template keys a double by.
func TestJavaDouble(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		f    float64
		want string
	}{
		{0, "0.0"}, {90, "90.0"}, {0.5, "0.5"}, {-2.25, "-2.25"}, {0.001, "0.001"}, {0.0001, "1.0E-4"},
		{1234567.5, "1234567.5"}, {1e7, "1.0E7"}, {1.5e10, "1.5E10"}, {-3e-5, "-3.0E-5"},
	} {
		if got := javaDouble(tc.f); got != tc.want {
			t.Errorf("javaDouble(%v) = %q, want %q", tc.f, got, tc.want)
		}
	}
}
