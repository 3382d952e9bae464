package urn

import (
	"testing"

	"github.com/catalogkit/datahub-go/internal/hooks"
)

// checkDatasetKeepsText fails t when what d keeps of its text disagrees with
// its parts: String must be the URN built from Platform, Name and Env, and
// hooks.DatasetText must give that text, calling it plain exactly when
// each of its bytes is ASCII from the space up other than '"' and '\'.
func checkDatasetKeepsText(t *testing.T, d Dataset) {
	t.Helper()
	s := d.String()
	text, plain, ok := hooks.DatasetText(d)
	if s == "" {
		if d != (Dataset{}) || ok || d.Platform() != (DataPlatform{}) || d.Name() != "" || d.Env() != "" {
			t.Errorf("%#v: empty text, DatasetText %q %v %v", d, text, plain, ok)
		}
		return
	}
	if want := "urn:li:dataset:(urn:li:dataPlatform:" + d.Platform().Name() + "," + d.Name() + "," + d.Env() + ")"; s != want {
		t.Errorf("String() = %q, want %q from its parts", s, want)
	}
	want := true
	for _, c := range []byte(s) {
		want = want && c >= 0x20 && c < 0x80 && c != '"' && c != '\\'
	}
	if !ok || text != s || plain != want {
		t.Errorf("%q: DatasetText = %q, %v, %v; want plain %v", s, text, plain, ok, want)
	}
	if back, err := ParseDataset(s); err != nil || back != d {
		t.Errorf("%q parses back as %#v, %v", s, back, err)
	}
}

// TestDatasetKeepsText checks what a Dataset keeps of its text for built and
// parsed URNs with plain and other bytes.
func TestDatasetKeepsText(t *testing.T) {
	t.Parallel()
	for _, tc := range [][3]string{
		{"hive", "db.table", "PROD"},
		{"urn:li:dataPlatform:kafka", "topic", "dev"},
		{"hive", `we"ird\name`, ""},
		{"hive", "tab\tle\x01", "PROD"},
		{"hive", "naïve ✓ 𝄞", "PROD"},
		{"my platform", "a,b(c)", "QA"},
		{"hive", "n\x7f", "PROD"},
	} {
		d, err := NewDataset(tc[0], tc[1], tc[2])
		if err != nil {
			t.Fatalf("NewDataset(%q, %q, %q): %v", tc[0], tc[1], tc[2], err)
		}
		checkDatasetKeepsText(t, d)
	}
	d, err := Parse("urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD),f)")
	if err != nil {
		t.Fatal(err)
	}
	checkDatasetKeepsText(t, d.(SchemaField).Parent().(Dataset))
	checkDatasetKeepsText(t, Dataset{})
	if _, _, ok := hooks.DatasetText(MustParse("urn:li:corpuser:x")); ok {
		t.Error("DatasetText of a corpuser URN: ok")
	}
	if _, _, ok := hooks.DatasetText(&d); ok {
		t.Error("DatasetText of a pointer: ok")
	}
}

// FuzzDatasetKeepsText checks what a Dataset keeps of its text for any
// dataset URN NewDataset builds or ParseDataset reads.
func FuzzDatasetKeepsText(f *testing.F) {
	f.Add("hive", "db.table", "PROD", "urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)")
	f.Add("", `"\`, "dev", "urn:li:dataset:(urn:li:dataPlatform:h\"ive,x\\,PROD)")
	f.Add("h\xffive", "n\xe2\x82", "PROD", "urn:li:dataset:(urn:li:dataPlatform:\xc3,\xe2\x82,PROD)")
	f.Fuzz(func(t *testing.T, platform, name, env, s string) {
		if d, err := NewDataset(platform, name, env); err == nil {
			checkDatasetKeepsText(t, d)
		}
		if d, err := ParseDataset(s); err == nil {
			checkDatasetKeepsText(t, d)
		}
	})
}
