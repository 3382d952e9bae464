package patch

import (
	"errors"
	"testing"
)

// TestCheck: Check refuses what Apply refuses before it reads a value, with
// the same error, and passes the rest.
func TestCheck(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, aspect, doc string
		kind              error // nil: passes
	}{
		{"template", "globalTags", `[{"op":"add","path":"/tags/x","value":{"tag":"x"}}]`, nil},
		{"generic without template", "institutionalMemory", `{"patch":[],"forceGenericPatch":true}`, nil},
		{"missing path passes (value-dependent)", "globalTags", `[{"op":"replace","path":"/tags/nope","value":{}}]`, nil},
		{"not JSON", "globalTags", `[`, ErrBadPatch},
		{"bad op", "globalTags", `[{"op":"frob","path":"/a"}]`, ErrBadOp},
		{"not a pointer", "globalTags", `[{"op":"add","path":"a","value":1}]`, ErrBadPath},
		{"no template", "institutionalMemory", `[]`, ErrNoTemplate},
		{"bad patch before no template", "institutionalMemory", `{}`, ErrBadPatch},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := Check(tt.aspect, []byte(tt.doc))
			if tt.kind == nil {
				if err != nil {
					t.Fatalf("Check = %v, want nil", err)
				}
				return
			}
			var pe *Error
			if !errors.As(err, &pe) || !errors.Is(err, tt.kind) || pe.Aspect != tt.aspect {
				t.Fatalf("Check = %v, want an *Error of kind %v for %s", err, tt.kind, tt.aspect)
			}
			_, aerr := Apply(tt.aspect, nil, []byte(tt.doc))
			if aerr == nil || aerr.Error() != err.Error() {
				t.Errorf("Apply = %v, want the same error as Check: %v", aerr, err)
			}
		})
	}
}
