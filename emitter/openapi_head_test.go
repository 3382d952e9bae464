package emitter

import (
	"bytes"
	"testing"

	"github.com/catalogkit/datahub-go/urn"
)

// FuzzV3DatasetHead: appendV3DatasetHead writes what `{"urn":` and
// appendString of its text write, for any dataset URN with a name.
func FuzzV3DatasetHead(f *testing.F) {
	f.Add("hive", "db.table", "PROD", "urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)")
	f.Add("", `"\`, "dev", "urn:li:dataset:(,x,PROD)")
	f.Add("h\xffive", "n\xe2\x82", "PROD", "urn:li:dataset:(urn:li:dataPlatform:\xc3,\xe2\x82,PROD)")
	f.Add("kafka", "a.b.c.d.e.f.g.h.i", "DEV", "urn:li:dataset:(urn:li:dataPlatform:k<a>,x\u2028,PROD)")
	check := func(t *testing.T, d urn.Dataset) {
		if !directURN(d) {
			return
		}
		got := appendV3DatasetHead([]byte("x"), d)
		want := appendString([]byte(`x{"urn":`), d.String())
		if !bytes.Equal(got, want) {
			t.Fatalf("appendV3DatasetHead(%q) = %s, want %s", d.String(), got, want)
		}
	}
	f.Fuzz(func(t *testing.T, platform, name, env, s string) {
		if d, err := urn.NewDataset(platform, name, env); err == nil {
			check(t, d)
		}
		if d, err := urn.ParseDataset(s); err == nil {
			check(t, d)
		}
	})
}
