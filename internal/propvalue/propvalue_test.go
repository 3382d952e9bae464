package propvalue

import (
	"strings"
	"testing"
)

func TestOf(t *testing.T) {
	t.Parallel()
	type myInt int16
	for _, v := range []any{int8(-3), myInt(7), uint32(9), float32(1.5), 2.25, 42} {
		pv, err := Of(v)
		if err != nil || pv.Double == nil || pv.String != nil {
			t.Errorf("Of(%T %v) = %+v, %v; want a double", v, v, pv, err)
		}
	}
	if pv, err := Of("gold"); err != nil || pv.String == nil || *pv.String != "gold" {
		t.Errorf(`Of("gold") = %+v, %v`, pv, err)
	}
	for _, v := range []any{true, nil, []string{"a"}, struct{}{}} {
		if _, err := Of(v); err == nil || !strings.Contains(err.Error(), "string or a number") {
			t.Errorf("Of(%T) error = %v, want a refusal", v, err)
		}
	}
}
