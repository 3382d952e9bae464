package openapi

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// echoCase decodes list, a batch POST's body, as Write does (quickItems,
// else the general path) and gives its echoes results from script, a
// byte a write: the core's value the request's own (the same memory or
// a copy), another value, none (pending), or that and default aspects;
// the answer's systemMetadata from the script's first byte. ok is false
// for a list that does not decode.
func echoCase(s *Handler, list, script []byte) (echoes []proposalEcho, res []gms.Written, wq v3Write, ok bool) {
	var ps []gms.Proposal
	if !quickItems(list, &ps, &echoes) {
		var e *openAPIError
		if _, echoes, e = generalItems(s, list); e != nil {
			return nil, nil, wq, false
		}
	}
	res = make([]gms.Written, len(echoes))
	for i, ec := range echoes {
		c := byte(0)
		if i < len(script) {
			c = script[i]
		}
		switch c % 6 {
		case 0:
			res[i].Value = ec.value
		case 1:
			res[i].Value = bytes.Clone(ec.value)
		case 2:
			res[i].Value = json.RawMessage(`{"stored":1}`)
		case 3:
			res[i].Pending = true
		case 4:
			res[i].Value = ec.value[:len(ec.value):len(ec.value)]
			res[i].Defaults = []gms.DefaultAspect{{Name: "dataPlatformInstance", Value: json.RawMessage(`{"platform":"p"}`)}}
		case 5:
			res[i].Skipped = true
		}
	}
	if len(script) > 0 && script[0]&0x80 != 0 {
		wq = v3Write{withSM: true, traceID: "t", actor: "urn:li:corpuser:a"}
	}
	return echoes, res, wq, true
}

// checkEchoAnswer: the answer written with the request's text where it
// holds it equals echoObjects's, for the results of script and for
// fewer results than echoes.
func checkEchoAnswer(t *testing.T, s *Handler, list, script []byte) {
	t.Helper()
	echoes, res, wq, ok := echoCase(s, list, script)
	if !ok {
		return
	}
	for _, r := range [][]gms.Written{res, res[:len(res)/2], nil} {
		var want bytes.Buffer
		want.WriteString("before")
		appendList(&want, echoObjects(echoes, r, wq, 7))
		var got bytes.Buffer
		got.WriteString("before")
		appendAnswer(&got, list, echoes, r, wq, 7)
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("list %s, script %x, %d results:\n got %s\nwant %s", list, script, len(r), got.Bytes(), want.Bytes())
		}
	}
}

// echoSeeds are lists whose answers copy the request's text, and lists
// whose text differs from the answer's just before a value: white space,
// an aspect key in another case or escaped, a URN escaped, members
// before the value.
var echoSeeds = []string{
	`[{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)","datasetproperties":{"value":{"name":"n"}}}]`,
	`[{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)","datasetProperties":{"systemMetadata":{"runId":"r"},"value":{"name":"n"}}}]`,
	`[{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.\u0061,PROD)","datasetProperties":{"value":{"name":"n"}}}]`,
	`[{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)","datasetProperti\u0065s":{"value":{"name":"n"}}}]`,
	`[{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)","datasetProperties": {"value":{"name":"n"}}}]`,
	`[{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.é,PROD)","datasetProperties":{"value":{"name":"n"}}}]`,
	`[{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.<a>,PROD)","datasetProperties":{"value":{"name":"n"}}}]`,
	"[{\"urn\":\"urn:li:dataset:(urn:li:dataPlatform:hive,db.\u2028,PROD)\",\"datasetProperties\":{\"value\":{\"name\":\"n\"}}}]",
	`[{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)","status":{"value":{"removed":false}},"datasetProperties":{"value":{"name":"n"}}},` +
		`{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.b,PROD)","status":{"value":{"removed":false}}},` +
		`{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)","status":{"value":{"removed":true}}}]`,
}

// TestEchoAnswer: answers copied from the request's text equal
// echoObjects's, for every list of the decode's tests, and the emitters'
// items are copied indeed.
func TestEchoAnswer(t *testing.T) {
	t.Parallel()
	s := newQuickHandler(t)
	lists := append(append([]string(nil), quickItemsSeeds...), echoSeeds...)
	for _, item := range chunkItems {
		lists = append(lists, string(chunkList(item, 20)))
	}
	for _, list := range lists {
		for _, script := range [][]byte{nil, {0, 1, 2, 3, 4, 5}, {0x81, 4, 1}, {1, 1, 1, 1}, {3, 0, 0}} {
			checkEchoAnswer(t, s, []byte(list), script)
		}
	}
	// The emitters' items, with the value stored as sent, are copied.
	list := chunkList(chunkItems[0], 20)
	echoes, res, _, _ := echoCase(s, list, nil)
	for i := range echoes {
		if echoText(list, &echoes[i], res[i].Value) == nil {
			t.Errorf("item %d of the emitter's list not copied from the request", i)
		}
	}
	// Text that only looks like the answer's is not copied: the aspect's
	// key in another case, and a value not in the body.
	for _, list := range []string{echoSeeds[0], echoSeeds[4]} {
		echoes, res, _, _ := echoCase(s, []byte(list), nil)
		if text := echoText([]byte(list), &echoes[0], res[0].Value); text != nil {
			t.Errorf("%s: copied %s", list, text)
		}
	}
	ec := echoes[0]
	ec.value = bytes.Clone(ec.value)
	if text := echoText([]byte(echoSeeds[0]), &ec, ec.value); text != nil {
		t.Errorf("a value outside the body: copied %s", text)
	}
}

// FuzzEchoAnswer: an answer copied from the request's text equals
// echoObjects's.
func FuzzEchoAnswer(f *testing.F) {
	for _, list := range append(append([]string(nil), quickItemsSeeds...), echoSeeds...) {
		f.Add([]byte(list), []byte{0, 1, 2, 3, 4, 5})
	}
	s := newQuickHandler(f)
	f.Fuzz(func(t *testing.T, list, script []byte) { checkEchoAnswer(t, s, list, script) })
}
