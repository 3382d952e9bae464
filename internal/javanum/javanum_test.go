package javanum

import (
	"math"
	"regexp"
	"strconv"
	"testing"
)

// point3 is 0.1+0.2 computed in float64 (a constant expression would be exact).
var point1, point2 = 0.1, 0.2
var point3 = point1 + point2

// TestDouble checks Double against texts of Java's Double.toString.
func TestDouble(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		f    float64
		want string
	}{
		{0, "0.0"}, {math.Copysign(0, -1), "-0.0"}, {90, "90.0"}, {0.5, "0.5"}, {-2.25, "-2.25"},
		{0.001, "0.001"}, {0.0001, "1.0E-4"}, {1234567.5, "1234567.5"}, {9999999, "9999999.0"},
		{1e7, "1.0E7"}, {1.5e10, "1.5E10"}, {-3e-5, "-3.0E-5"}, {1e100, "1.0E100"}, {1.25e-300, "1.25E-300"},
		{math.MaxFloat64, "1.7976931348623157E308"}, {math.SmallestNonzeroFloat64, "4.9E-324"},
		{point3, "0.30000000000000004"}, {1e23, "1.0E23"}, {2e-323, "2.0E-323"}, {100, "100.0"}, {-1e-3, "-0.001"},
		{math.NaN(), "NaN"}, {math.Inf(1), "Infinity"}, {math.Inf(-1), "-Infinity"},
	} {
		if got := Double(tc.f); got != tc.want {
			t.Errorf("Double(%v) = %q, want %q", tc.f, got, tc.want)
		}
	}
}

var (
	plainText = regexp.MustCompile(`^-?(0|[1-9][0-9]*)\.[0-9]+$`)
	sciText   = regexp.MustCompile(`^-?[1-9]\.[0-9]+E-?[1-9][0-9]*$`)
)

// FuzzDouble checks the shape of Java's text and that it reads back as the
// same number: plain exactly in Java's range, scientific outside it.
func FuzzDouble(f *testing.F) {
	for _, v := range []float64{0, 1, -1, 0.001, 0.000999, 1e7, 9999999.999, 1e-300, 1e300, 0.1, 123.456} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v float64) {
		s := Double(v)
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return
		}
		back, err := strconv.ParseFloat(s, 64)
		if err != nil || back != v || math.Signbit(back) != math.Signbit(v) {
			t.Fatalf("Double(%v) = %q, which reads back as %v (%v)", v, s, back, err)
		}
		a := math.Abs(v)
		if plain := a == 0 || a >= 1e-3 && a < 1e7; plain != plainText.MatchString(s) || !plain != sciText.MatchString(s) {
			t.Fatalf("Double(%v) = %q: plain %v, but the text is not of that form", v, s, plain)
		}
	})
}
