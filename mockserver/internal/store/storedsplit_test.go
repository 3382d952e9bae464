package store

import (
	"encoding/json"
	"fmt"
	"testing"
)

// storedSplitInputs are texts whose outline or values storedSplit must
// tell apart, beside storedMembersInputs.
var storedSplitInputs = []string{
	`{"a":"x\\"}`, `{"a":"\\\"","b":"\"}"}`, `{"a":"}","b":"{"}`, `{"a":{"b": 1},"c":[ 1 , {"d":"]"} ]}`,
	`{"a":1 }`, `{"a": 1}`, "{\"a\":1\n}", `{"a":{}x}`, `{"a":[1}}`, `{"a":1,,"b":2}`, `{"a":1,"b"}`, `{"a"1}`,
	`{"":1,"a":2}`, `{"a":1,"":2}`, `{"b":{"a":1},"a":2}`, `{"a":"\ud800"}`, "{\"a\":\"\xff\"}", `{"a":"x"`, `{}}`,
}

// TestStoredSplit: whenever storedSplit takes a valid text, it gives the
// members unmarshalRawObject gives; it takes marshal's output.
func TestStoredSplit(t *testing.T) {
	t.Parallel()
	inputs := append(append(append([]string{}, storedMembersInputs...), fastJSONInputs...), storedSplitInputs...)
	for _, in := range inputs {
		for _, share := range []bool{false, true} {
			checkStoredSplit(t, in, share)
		}
	}
	for _, in := range []string{storedMembersInputs[1], storedMembersInputs[2], storedMembersInputs[3],
		storedSplitInputs[0], storedSplitInputs[1], storedSplitInputs[2], storedSplitInputs[3], storedSplitInputs[12]} {
		if _, ok := storedSplit(nil, []byte(in), true); !ok {
			t.Errorf("storedSplit(%s) refused marshal's outline", in)
		}
	}
	for _, in := range []string{storedSplitInputs[4], storedSplitInputs[5], storedSplitInputs[6], storedSplitInputs[13],
		storedSplitInputs[14], `{"a":1,"a":2}`, `{"\u0061":1}`} {
		if _, ok := storedSplit(nil, []byte(in), true); ok {
			t.Errorf("storedSplit(%s) took a valid text that is not in marshal's form", in)
		}
	}
}

// checkStoredSplit checks storedSplit(in) against unmarshalRawObject for
// valid JSON in.
func checkStoredSplit(t *testing.T, in string, share bool) {
	t.Helper()
	dst := rawObject{{Key: "kept", Value: json.RawMessage(`1`)}}
	got, ok := storedSplit(dst, []byte(in), share)
	if len(got) == 0 || got[0].Key != "kept" {
		t.Fatalf("storedSplit(%q) lost dst's members: %v", in, got)
	}
	got = got[1:]
	if !ok {
		if len(got) != 0 {
			t.Errorf("storedSplit(%q) refused it but appended %v", in, got)
		}
		return
	}
	if !json.Valid([]byte(in)) {
		return // trusted to be valid: any members do
	}
	checkMembersOf(t, fmt.Sprintf("storedSplit(share %v)", share), in, got)
}

// FuzzStoredSplit holds storedSplit to unmarshalRawObject on valid texts,
// and to taking marshal's output whenever storedMembers takes it, and
// appendMarshalFrom to marshal.
func FuzzStoredSplit(f *testing.F) {
	for _, in := range append(append(append([]string{}, storedMembersInputs...), fastJSONInputs...), storedSplitInputs...) {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		checkStoredSplit(t, in, false)
		checkStoredSplit(t, in, true)
		checkAppendMarshalFrom(t, in)
		_, out, ok := remarshalled(in)
		if !ok {
			return
		}
		checkStoredSplit(t, string(out), true)
		_, fast := storedSplit(nil, out, true)
		if _, slow := storedMembers(nil, out); slow && !fast {
			t.Fatalf("storedSplit(%s) refused marshal's output that storedMembers takes", out)
		}
	})
}

// TestAppendMarshalFrom: members storedSplit took from marshal's output,
// changed as Rules change them, are written as marshal writes them.
func TestAppendMarshalFrom(t *testing.T) {
	t.Parallel()
	for _, in := range append(append(append([]string{}, storedMembersInputs...), fastJSONInputs...),
		`{"a":"→","b":"<&>"}`, `{"a":"\u2028 x","p":{"k":"v w"}}`, `{"a<":1,"é":2}`) {
		checkAppendMarshalFrom(t, in)
	}
}

// checkAppendMarshalFrom checks appendMarshalFrom against marshal for the
// members of marshal's output of in (when it is an object) taken by
// storedSplit, with members added, moved and replaced.
func checkAppendMarshalFrom(t *testing.T, in string) {
	t.Helper()
	_, text, ok := remarshalled(in)
	if !ok {
		return
	}
	for _, share := range []bool{false, true} {
		split, ok := storedSplit(nil, text, share)
		if !ok {
			continue
		}
		changes := []func(rawObject) rawObject{
			func(o rawObject) rawObject { return o },
			func(o rawObject) rawObject {
				for _, m := range o {
					o.set("moved<", m.Value) // a taken value under a key to check
					o.set("zz", m.Value)
				}
				return o
			},
			func(o rawObject) rawObject {
				o.set("version", json.RawMessage(`"12"`))
				o.set("runId", json.RawMessage(`"a b"`))
				return o
			},
			func(o rawObject) rawObject {
				for i := range o {
					o[i].Value = json.RawMessage(`{"x": "<"}`)
				}
				return o
			},
		}
		for i, change := range changes {
			members := change(append(rawObject{}, split...))
			want, wantErr := append(rawObject{}, members...).marshal()
			got, gotErr := members.appendMarshalFrom([]byte("x"), true, text)
			if (wantErr == nil) != (gotErr == nil) || wantErr == nil && string(got) != string(lpBytes([]byte("x"), want)) {
				t.Fatalf("appendMarshalFrom(change %d of %s, share %v) = %q, %v; want %q, %v",
					i, text, share, got, gotErr, lpBytes([]byte("x"), want), wantErr)
			}
		}
	}
}

// benchSM is a stored systemMetadata as an update of the Python emitter's
// proposals finds it.
const benchSM = `{"lastObserved":1618987484580,"lastRunId":"no-run-id-provided",` +
	`"properties":{"clientId":"acryl-datahub","clientVersion":"1!0.0.0.dev0"},"runId":"no-run-id-provided","version":"12"}`

// BenchmarkStoredSplit compares the members of a stored systemMetadata
// split by storedMembers and by storedSplit.
func BenchmarkStoredSplit(b *testing.B) {
	sm := []byte(benchSM)
	dst := make(rawObject, 0, 16)
	b.Run("storedMembers", func(b *testing.B) {
		for b.Loop() {
			if _, ok := storedMembers(dst[:0], sm); !ok {
				b.Fatal("refused")
			}
		}
	})
	b.Run("storedSplit", func(b *testing.B) {
		for b.Loop() {
			if _, ok := storedSplit(dst[:0], sm, true); !ok {
				b.Fatal("refused")
			}
		}
	})
}

// BenchmarkAppendMarshalFrom compares writing an update's systemMetadata,
// most of its members taken from the stored one, with appendMarshal and
// appendMarshalFrom.
func BenchmarkAppendMarshalFrom(b *testing.B) {
	sm := []byte(benchSM)
	members, _ := storedSplit(nil, sm, true)
	members.set("lastObserved", json.RawMessage(`1618987484581`))
	members.set("version", json.RawMessage(`"13"`))
	buf := make([]byte, 0, 512)
	b.Run("appendMarshal", func(b *testing.B) {
		for b.Loop() {
			if _, err := members.appendMarshal(buf[:0], true); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("appendMarshalFrom", func(b *testing.B) {
		for b.Loop() {
			if _, err := members.appendMarshalFrom(buf[:0], true, sm); err != nil {
				b.Fatal(err)
			}
		}
	})
}
