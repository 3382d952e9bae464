package mockserver

import "testing"

// TestJavaPercent checks the truncate summary's percentage against Java's
// String.format("%.2f", n*100.0/total), which rounds HALF_UP.
func TestJavaPercent(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		n, total int
		want     string
	}{
		{1, 800, "0.13"},    // 0.125
		{601, 800, "75.13"}, // 75.125
		{3, 1600, "0.19"},   // 0.1875
		{1, 1600, "0.06"},   // 0.0625
		{1, 3, "33.33"},
		{2, 3, "66.67"},
		{1, 8, "12.50"},
		{0, 201, "0.00"},
		{800, 800, "100.00"},
		{1999, 2000, "99.95"},
		{19999, 20000, "100.00"},   // 99.995: Java rounds the digits, as for 1.005 -> "1.01"
		{199999, 200000, "100.00"}, // 99.9995
		{1, 200000, "0.00"},        // 0.0005
		{1, 2000000, "0.00"},       // 0.00005
		{0, 0, "NaN"},
		{1, 0, "Infinity"},
	} {
		if got := javaPercent(tc.n, tc.total); got != tc.want {
			t.Errorf("javaPercent(%d, %d) = %q, want %q", tc.n, tc.total, got, tc.want)
		}
	}
}
