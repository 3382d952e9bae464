package index

import (
	"errors"
	"testing"
)

// TestDecodeBase64 checks the scroll id decoder against Java's basic Base64
// decoder: padding optional, and Java's messages for what it refuses.
func TestDecodeBase64(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ id, want, fail string }{
		{id: "", want: ""},
		{id: "YWJj", want: "abc"},
		{id: "YWI=", want: "ab"},
		{id: "YWI", want: "ab"},
		{id: "YQ==", want: "a"},
		{id: "YQ", want: "a"},
		{id: "YR", want: "a"}, // unused bits ignored
		{id: "a", fail: "Input byte[] should at least have 2 bytes for base64 bytes"},
		{id: "abcde", fail: "Last unit does not have enough valid bits"},
		{id: "a!b", fail: "Illegal base64 character 21"},
		{id: "ab_c", fail: "Illegal base64 character 5f"},
		{id: "ab\xffc", fail: "Illegal base64 character -1"},
		{id: "YQ=", fail: "Input byte array has wrong 4-byte ending unit"},
		{id: "=abc", fail: "Input byte array has wrong 4-byte ending unit"},
		{id: "YWI=x", fail: "Input byte array has incorrect ending byte at 4"},
		{id: "YQ==YQ", fail: "Input byte array has incorrect ending byte at 4"},
		{id: "Y=", fail: "Last unit does not have enough valid bits"},
	} {
		b, err := DecodeBase64(c.id)
		switch {
		case c.fail != "":
			if !errors.Is(err, ErrScrollBase64) || !errors.Is(err, ErrScrollID) || err.Error() != ErrScrollBase64.Error()+": "+c.fail {
				t.Errorf("DecodeBase64(%q) = %q, %v; want the error %q", c.id, b, err, c.fail)
			}
		case err != nil || string(b) != c.want:
			t.Errorf("DecodeBase64(%q) = %q, %v; want %q", c.id, b, err, c.want)
		}
	}
}
