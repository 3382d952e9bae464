// Package javanum formats numbers as Java does, for the places where
// DataHub keys or compares a number by its Java text.
package javanum

import (
	"math"
	"strconv"
	"strings"
)

// Double formats f as Java's Double.toString does (JDK 19 and later, the
// shortest text that reads back as f): plain with at least one decimal for
// 1e-3 <= |f| < 1e7 and for zero ("90.0", "0.001", "-0.0"), else
// d.dddE<exponent> ("1.0E7", "1.5E-4", "4.9E-324"); NaN, Infinity and
// -Infinity.
func Double(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	if a := math.Abs(f); a == 0 || (a >= 1e-3 && a < 1e7) {
		s := strconv.FormatFloat(f, 'f', -1, 64)
		if !strings.Contains(s, ".") {
			s += ".0"
		}
		return s
	}
	text := strconv.FormatFloat(f, 'e', -1, 64) // 1.5e+20, 1e-05
	if !strings.Contains(text, ".") {
		// Java prints two digits at least, and of the two-digit decimals
		// that read back as f it picks the closest: 4.9E-324, not 5.0E-324.
		text = strconv.FormatFloat(f, 'e', 1, 64)
		if back, err := strconv.ParseFloat(text, 64); err != nil || back != f {
			text = strings.Replace(strconv.FormatFloat(f, 'e', -1, 64), "e", ".0e", 1)
		}
	}
	mant, exp, _ := strings.Cut(text, "e")
	n, _ := strconv.Atoi(exp) // drops the sign of a positive exponent and leading zeros
	return mant + "E" + strconv.Itoa(n)
}
