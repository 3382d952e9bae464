package pdl

import (
	"encoding/json"
	"testing"
)

func TestJavaString(t *testing.T) {
	t.Parallel()
	tests := []struct {
		v    any
		want string
	}{
		{nil, "null"},
		{"x y", "x y"},
		{true, "true"},
		{json.Number("12"), "12"},
		{json.Number("1.50"), "1.5"},
		{json.Number("1e3"), "1000.0"},
		{json.Number("100.0"), "100.0"},
		{json.Number("1e7"), "1.0E7"},
		{json.Number("1.5e20"), "1.5E20"},
		{json.Number("0.0001"), "1.0E-4"},
		{json.Number("-0.001"), "-0.001"},
		{0.0, "0.0"},
		{map[string]any{"b": json.Number("1"), "a": "x"}, "{a=x, b=1}"},
		{[]any{json.Number("1"), "a", nil}, "[1, a, null]"},
	}
	for _, tt := range tests {
		if got := javaString(tt.v); got != tt.want {
			t.Errorf("javaString(%#v) = %q, want %q", tt.v, got, tt.want)
		}
	}
}
