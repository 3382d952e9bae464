package gms

import (
	"bytes"
	"encoding/json"
	"sync"
	"testing"
)

// quickTelemetrySeeds are systemMetadata texts as clients send them, and
// texts the quick path leaves to the general one.
var quickTelemetrySeeds = []string{
	`{"lastObserved":1700000000000,"runId":"no-run-id-provided","lastRunId":"no-run-id-provided","properties":{"clientId":"datahub-go","clientVersion":"0.1.0"}}`,
	`{"lastObserved":1618987484580,"runId":"no-run-id-provided","properties":{"clientId":"acryl-datahub","clientVersion":"1!0.0.0.dev0"}}`,
	`{"runId":"r","lastObserved":5}`,
	`{}`,
	``,
	`null`,
	`{"properties":null}`,
	`{"properties":{"a":"1"},"properties":{"b":"2"}}`,
	`{"properties":{"b":"1","a":"2","b":"0"}}`,
	`{"properties":{"telemetryTraceId":"mine"}}`,
	`{"properties":[1]}`,
	`{"properties":{"k\"ey":"v"}}`,
	`{"run\u0049d":"r"}`,
	`{"aspectModified":{"time":1,"actor":"urn:li:corpuser:x"},"properties":{"z":"1"}}`,
	`{ "a": 1 }`,
	`{"a":01}`,
	`{"a":1}x`,
	`[1]`,
	`{"properties":{"eventSource":"mine","zz":"1"}}`,
}

// FuzzTelemetryQuick: the quick path's telemetry, when it takes a text,
// equals the general one's.
func FuzzTelemetryQuick(f *testing.F) {
	for _, s := range quickTelemetrySeeds {
		f.Add(s, "10.0.0.1", true)
		f.Add(s, `10.0.0.1, "x"`, false)
	}
	f.Fuzz(func(t *testing.T, sm, ip string, api bool) {
		k := Caller{SourceIP: ip, TraceID: "0006475ef64cf3405c5cd84938252c43"}
		if api {
			k.API = APIOpenAPI
		}
		got, ok := newTelemetryText(k).quick([]byte(sm))
		if !ok {
			return
		}
		if want := k.telemetryGeneral(json.RawMessage(sm)); !bytes.Equal(got, want) {
			t.Errorf("quick(%s) = %s, general %s", sm, got, want)
		}
	})
}

// quickUpdateSeeds are pairs of stored properties and a write's
// properties, as the store and clients write them, and texts the quick
// path leaves to the general one.
var quickUpdateSeeds = [][2]string{
	{`{"clientId":"datahub-go","clientVersion":"0.1.0","eventSource":"OPENAPI","sourceIP":"127.0.0.1","telemetryTraceId":"a"}`,
		`{"clientId":"datahub-go","clientVersion":"0.1.0","eventSource":"OPENAPI","sourceIP":"127.0.0.1","telemetryTraceId":"b"}`},
	{`{"clientId":"datahub-go","clientVersion":"0.1.0"}`, `{"clientId":"x","eventSource":"OPENAPI","sourceIP":"1","telemetryTraceId":"b"}`},
	{``, `{"telemetryTraceId":"t","eventSource":"OPENAPI","sourceIP":"1.2.3.4","clientId":"x"}`},
	{`null`, `{"telemetryTraceId":"t"}`},
	{`{"z": 1, "a":"b","telemetryTraceId":"old","sourceIP":"9"}`, ` {"telemetryTraceId": "new"} `},
	{`{"a":"b","sourceIP":"9","telemetryTraceId":"old","z":1}`, `{"telemetryTraceId":"new"}`},
	{`{"a":1,"a":[2,3]}`, `{"telemetryTraceId":"t","telemetryTraceId":"u"}`},
	{`{"a":1}`, `{"clientId":"telemetryTraceId"}`},
	{`{"a":1}`, `{"eventSource":"OPENAPI"}`},
	{`[1]`, `{"telemetryTraceId":"t"}`},
	{`{"a":1}`, `{"telemetryTraceId":`},
	{`{"sourceIP":"9"}`, `{"telemetryTraceId":"t","sourceIP":"1, 2"}`},
	{`{"u":"1"}`, `{"telemetryTraceId":{"a": [1, 2]}}`},
}

// FuzzUpdateTelemetryQuick: the quick path's update of the stored
// properties, when it takes the texts, equals the general one's.
func FuzzUpdateTelemetryQuick(f *testing.F) {
	for _, s := range quickUpdateSeeds {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, prev, props string) {
		got, traced, ok := updateTelemetryQuick([]byte(prev), []byte(props))
		if !ok {
			return
		}
		want, wantTraced := updateTelemetryGeneral([]byte(prev), []byte(props))
		if traced != wantTraced || !bytes.Equal(got, want) {
			t.Errorf("quick(%s, %s) = %s, %v; general %s, %v", prev, props, got, traced, want, wantTraced)
		}
	})
}

// TestTelemetryQuickTakes: the texts clients and the store write take the
// quick paths (so that the fuzz targets compare something), and a batch's
// equal systemMetadata get one shared text.
func TestTelemetryQuickTakes(t *testing.T) {
	t.Parallel()
	k := Caller{API: APIOpenAPI, SourceIP: "127.0.0.1", TraceID: "abc"}
	tt := newTelemetryText(k)
	for _, sm := range quickTelemetrySeeds[:4] {
		if _, ok := tt.quick([]byte(sm)); !ok {
			t.Errorf("quick(%s) not taken", sm)
		}
	}
	for _, c := range quickUpdateSeeds[:4] {
		if _, _, ok := updateTelemetryQuick([]byte(c[0]), []byte(c[1])); !ok {
			t.Errorf("updateTelemetryQuick(%s, %s) not taken", c[0], c[1])
		}
	}
	a := []byte(quickTelemetrySeeds[0])
	b := bytes.Clone(a)
	outA, outB := tt.stamp(a), tt.stamp(b)
	if &outA[0] != &outB[0] || cap(outA) != len(outA) {
		t.Errorf("equal systemMetadata: texts not shared, or with room to append to")
	}
	want := `{"lastObserved":1700000000000,"runId":"no-run-id-provided","lastRunId":"no-run-id-provided","properties":{"clientId":"datahub-go","clientVersion":"0.1.0","eventSource":"OPENAPI","sourceIP":"127.0.0.1","telemetryTraceId":"abc"}}`
	if string(outB) != want {
		t.Errorf("stamp = %s, want %s", outB, want)
	}
	if other := tt.stamp([]byte(quickTelemetrySeeds[2])); string(other) != `{"runId":"r","lastObserved":5,"properties":{"eventSource":"OPENAPI","sourceIP":"127.0.0.1","telemetryTraceId":"abc"}}` {
		t.Errorf("stamp after another = %s", other)
	}
}

// TestUpdateTelemetryMemo: updateTelemetry's answers, remembered from one
// call to the next, are the general path's for every pair of texts in
// any order, from several goroutines at once; a remembered text is not
// changed by a change to the texts it was made of.
func TestUpdateTelemetryMemo(t *testing.T) {
	t.Parallel()
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for round := range 50 {
				for k := range quickUpdateSeeds {
					c := quickUpdateSeeds[(k+g+round)%len(quickUpdateSeeds)]
					prev, props := []byte(c[0]), []byte(c[1])
					want, wantTraced := updateTelemetryGeneral(prev, props)
					got, traced := updateTelemetry(prev, props)
					if traced != wantTraced || !bytes.Equal(got, want) {
						t.Errorf("updateTelemetry(%s, %s) = %s, %v; want %s, %v", prev, props, got, traced, want, wantTraced)
						return
					}
				}
			}
		})
	}
	wg.Wait()
	// The caller's memory reused for other texts of the same length.
	prev := []byte(quickUpdateSeeds[0][0])
	a, b := []byte(`{"telemetryTraceId":"a"}`), []byte(`{"telemetryTraceId":"b"}`)
	buf := bytes.Clone(a)
	first, _ := updateTelemetry(prev, buf)
	copy(buf, b)
	if got, _ := updateTelemetry(prev, bytes.Clone(b)); bytes.Equal(got, first) {
		t.Errorf("after the caller's memory changed: %s, the answer for the texts before", got)
	}
}

// BenchmarkUpdateTelemetry is the update of the stored properties of an
// aspect written in a traced request, as the store asks for it: the same
// texts as the write before ("batch"), or other texts each time ("each").
func BenchmarkUpdateTelemetry(b *testing.B) {
	prev := []byte(quickUpdateSeeds[0][0])
	props := [2][]byte{[]byte(quickUpdateSeeds[0][1]), bytes.Replace([]byte(quickUpdateSeeds[0][1]), []byte(`"b"`), []byte(`"c"`), 1)}
	for _, bm := range []struct {
		name string
		step int
	}{{"batch", 0}, {"each", 1}} {
		b.Run(bm.name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				i += bm.step
				_, _ = updateTelemetry(prev, props[i%2])
			}
		})
	}
}
