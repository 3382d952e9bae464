package openapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
	"github.com/catalogkit/datahub-go/mockserver/internal/wire"
)

// answerCase builds the echoes of a batch write and the core's results
// from script, each byte one write: its URN (of 4), its aspect (of 4),
// and whether it is skipped, pending, answered as stored, or created its
// entity (default aspects, one of which may be named as a write's).
func answerCase(script []byte) ([]proposalEcho, []gms.Written) {
	urns := []string{
		"urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)",
		"urn:li:dataset:(urn:li:dataPlatform:hive,db.b,PROD)",
		`urn:li:corpuser:"q\uote"`,
		"urn:li:dataset:(urn:li:dataPlatform:hive,db.é,PROD)",
	}
	names := []string{"status", "datasetProperties", "globalTags", "browsePathsV2"}
	var echoes []proposalEcho
	var res []gms.Written
	for i, c := range script {
		ec := proposalEcho{urn: urns[c&3], aspect: names[c>>2&3],
			value: json.RawMessage(fmt.Sprintf(`{"n":%d}`, i)), sm: json.RawMessage(`{"runId":"r"}`)}
		if c>>4&7 == 7 {
			ec.value = nil
		}
		var w gms.Written
		switch c >> 4 & 7 {
		case 1:
			w.Skipped = true
		case 2:
			w.Pending = true
		case 3:
			w.Value, w.Version = json.RawMessage(fmt.Sprintf(`{"stored":%d}`, i)), "2"
		case 4:
			w.Value, w.Version = json.RawMessage(`{}`), "1"
			w.Defaults = []gms.DefaultAspect{{Name: "dataPlatformInstance", Value: json.RawMessage(`{"platform":"p"}`)}}
			if c&0x80 != 0 {
				w.Defaults = append(w.Defaults, gms.DefaultAspect{Name: names[c&3], Value: json.RawMessage(`{"d":1}`)})
			}
		}
		echoes = append(echoes, ec)
		res = append(res, w)
	}
	return echoes, res
}

// checkAnswer: appendAnswer writes what echoObjects and appendList write,
// after what the buffer held, with and without systemMetadata and with
// fewer results than echoes (an async batch PATCH's none).
func checkAnswer(t *testing.T, script []byte) {
	t.Helper()
	echoes, res := answerCase(script)
	for _, wq := range []v3Write{{}, {withSM: true, traceID: "t", actor: "urn:li:corpuser:a"}} {
		for _, r := range [][]gms.Written{res, res[:len(res)/2], nil} {
			var want bytes.Buffer
			want.WriteString("before")
			appendList(&want, echoObjects(echoes, r, wq, 7))
			var got bytes.Buffer
			got.WriteString("before")
			appendAnswer(&got, echoes, r, wq, 7)
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Errorf("script %x, withSM %v, %d results:\n got %s\nwant %s", script, wq.withSM, len(r), got.Bytes(), want.Bytes())
			}
		}
	}
}

// answerSeeds are batches of the emitters' shape (URNs in runs, aspects
// once) and batches that need echoObjects's grouping.
var answerSeeds = [][]byte{
	{}, {0x00}, {0x00, 0x01, 0x02, 0x03}, {0x00, 0x04, 0x01, 0x05}, {0x30, 0x31, 0x32},
	{0x40, 0x41, 0xc2, 0x43}, {0x10, 0x11, 0x20, 0x21}, {0x70, 0x71},
	{0x00, 0x01, 0x00}, {0x00, 0x00}, {0x40, 0x00}, {0xc0}, {0xc1, 0x05}, {0x10, 0x00, 0x10, 0x01, 0x00},
}

// TestAppendAnswer: the answer written straight equals echoObjects's
// for batches in runs and not, and the emitters' batches take the
// straight path.
func TestAppendAnswer(t *testing.T) {
	t.Parallel()
	for _, s := range answerSeeds {
		checkAnswer(t, s)
	}
	// Every script of up to 3 writes over 2 URNs and 2 aspects, in every
	// state but the created entity's second default.
	var script []byte
	var walk func(n int)
	walk = func(n int) {
		checkAnswer(t, script)
		if n == 0 {
			return
		}
		for _, c := range []byte{0x00, 0x01, 0x04, 0x05, 0x10, 0x21, 0x34, 0x45, 0x70} {
			script = append(script, c)
			walk(n - 1)
			script = script[:len(script)-1]
		}
	}
	walk(3)
	for _, s := range [][]byte{{0x00, 0x01, 0x02, 0x03}, {0x30, 0x34, 0x31}, {0x40, 0x41, 0x10, 0x22}} {
		echoes, res := answerCase(s)
		var b bytes.Buffer
		if !appendRuns(&b, echoes, res) {
			t.Errorf("script %x: not written straight", s)
		}
	}
}

// TestAppendRunsURNCopies: echoes of one URN in a row whose strings are
// copies (not one string, as an item's echoes share) answer as
// echoObjects groups them; those of one string are written straight.
func TestAppendRunsURNCopies(t *testing.T) {
	t.Parallel()
	for _, s := range [][]byte{{0x00, 0x04}, {0x01, 0x05, 0x09}, {0x30, 0x34, 0x31}} {
		echoes, res := answerCase(s)
		var b bytes.Buffer
		if !appendRuns(&b, echoes, res) {
			t.Errorf("script %x: not written straight", s)
		}
		echoes[1].urn = strings.Clone(echoes[1].urn)
		b.Reset()
		if appendRuns(&b, echoes, res) {
			t.Errorf("script %x, a URN copied: written straight", s)
		}
		var want, got bytes.Buffer
		appendList(&want, echoObjects(echoes, res, v3Write{}, 7))
		appendAnswer(&got, echoes, res, v3Write{}, 7)
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("script %x, a URN copied:\n got %s\nwant %s", s, got.Bytes(), want.Bytes())
		}
	}
}

// FuzzAppendAnswer: the answer written straight equals echoObjects's.
func FuzzAppendAnswer(f *testing.F) {
	for _, s := range answerSeeds {
		f.Add(s)
	}
	f.Fuzz(checkAnswer)
}

// TestWriteString: writeString and appendJSONString write what
// marshalJSON does, for strings of every byte and of the characters it
// escapes.
func TestWriteString(t *testing.T) {
	t.Parallel()
	var texts []string
	for c := range 256 {
		texts = append(texts, string([]byte{byte(c)}), "urn:li:corpuser:abcdefgh"+string([]byte{byte(c)})+"ij")
	}
	texts = append(texts, "", "urn:li:dataset:(urn:li:dataPlatform:hive,db.table1,PROD)", "é\u2028\u2029<>&", "\xff\xfe")
	for _, s := range texts {
		var b bytes.Buffer
		writeString(&b, s)
		want, _ := wire.MarshalJSON(s)
		if !bytes.Equal(b.Bytes(), want) {
			t.Errorf("writeString(%q) = %s, want %s", s, b.Bytes(), want)
		}
		if got := appendJSONString([]byte("x"), s); !bytes.Equal(got[1:], want) {
			t.Errorf("appendJSONString(%q) = %s, want %s", s, got[1:], want)
		}
	}
}

// TestURNSet: a set of URNs reports each one added before, and none
// added for the first time, over resets of several sizes.
func TestURNSet(t *testing.T) {
	t.Parallel()
	var s urnSet
	for _, n := range []int{0, 1, 7, 200, 5000, 3} {
		s.reset(n)
		for i := range n {
			if s.add(fmt.Sprintf("urn:li:dataset:(urn:li:dataPlatform:hive,db.table_%05d,PROD)", i)) {
				t.Fatalf("set for %d: URN %d reported before it was added", n, i)
			}
		}
		for i := range n {
			if !s.add(fmt.Sprintf("urn:li:dataset:(urn:li:dataPlatform:hive,db.table_%05d,PROD)", i)) {
				t.Fatalf("set for %d: URN %d not reported after it was added", n, i)
			}
		}
	}
}
