package graphql

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func TestDecodeCache(t *testing.T) {
	t.Parallel()
	var c decodeCache
	raw := json.RawMessage(`{"removed":true}`)
	a, err := decode[statusJSON](&c, "status", raw, "urn:li:x:y")
	if err != nil || !a.Removed {
		t.Fatalf("decode = %+v, %v", a, err)
	}
	b, _ := decode[statusJSON](&c, "status", json.RawMessage(`{"removed":true}`), "urn:li:x:y")
	if a != b {
		t.Error("the same JSON was decoded twice")
	}
	// The same bytes under another aspect name or as another type are not
	// taken from the entry of the first.
	if e, err := decode[editableJSON](&c, "status", raw, "urn:li:x:y"); err != nil || e == nil {
		t.Errorf("decode as another type = %v, %v", e, err)
	}
	if _, err := decode[statusJSON](&c, "status", json.RawMessage(`{"removed":1}`), "urn:li:x:y"); err == nil {
		t.Error("bad JSON decoded without error")
	}
	// Large values: the cache holds at most maxCachedBytes of them.
	pad := strings.Repeat("x", 64<<10)
	held := 0
	for i := range 3 * maxCachedBytes / (cachedCost * len(pad)) {
		raw := json.RawMessage(fmt.Sprintf(`{"removed":false,"pad":"%s%d"}`, pad, i))
		if _, err := decode[statusJSON](&c, "status", raw, "u"); err != nil {
			t.Fatal(err)
		}
		held = 0
		for _, byJSON := range c.m {
			for k := range byJSON {
				held += cachedCost * len(k)
			}
		}
		if held > maxCachedBytes {
			t.Fatalf("cache holds %d bytes, limit %d", held, maxCachedBytes)
		}
	}
	// A value larger than a quarter of the bound is not kept.
	huge := json.RawMessage(`{"removed":false,"pad":"` + strings.Repeat("y", maxCachedBytes/cachedCost/4+1) + `"}`)
	if _, err := decode[statusJSON](&c, "status", huge, "u"); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.m["status"][string(huge)]; ok {
		t.Error("a value beyond the bound was cached")
	}
}
