package conformance_test

import (
	"testing"

	"github.com/catalogkit/datahub-go/mockserver/conformance"
)

// TestCompare pins the comparison DataHub's runner makes with DeepDiff
// (ignore_order=True, exclude_regex_paths).
func TestCompare(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, got, want string
		exclude         []string
		same            bool
	}{
		{"equal objects", `{"a":1,"b":"x"}`, `{"b":"x","a":1}`, nil, true},
		{"int and float differ", `{"d":30}`, `{"d":30.0}`, nil, false},
		{"float and float", `{"d":30.0}`, `{"d":3e1}`, nil, true},
		{"order ignored", `[1,2,3]`, `[3,1,2]`, nil, true},
		{"repetition ignored", `[1,1,2]`, `[2,1]`, nil, true},
		{"nested order ignored", `[{"t":["a","b"]}]`, `[{"t":["b","a"]}]`, nil, true},
		{"missing key", `{"a":1}`, `{"a":1,"b":2}`, nil, false},
		{"extra key", `{"a":1,"b":2}`, `{"a":1}`, nil, false},
		{"excluded key absent", `{"a":1}`, `{"a":1,"message":"m"}`, []string{`root\['message'\]`}, true},
		{"excluded key differs", `{"a":1,"message":"x"}`, `{"a":1,"message":"m"}`, []string{`root\['message'\]`}, true},
		{"excluded subtree", `{"v":{"t":1,"u":2}}`, `{"v":{"t":9}}`, []string{`root\['v'\]`}, true},
		{"exclusion in list items", `{"e":[{"u":"a","s":"1"},{"u":"b","s":"2"}]}`, `{"e":[{"u":"b","s":"9"},{"u":"a"}]}`,
			[]string{`root\['e'\]\[.+?\]\['s'\]`}, true},
		{"index-specific exclusion", `{"e":[{"u":"a"}]}`, `{"e":[{"u":"z"}]}`, []string{`root\['e'\]\[0\]\['u'\]`}, true},
		{"search, not full match", `{"x":{"lastModified":1}}`, `{"x":{"lastModified":2}}`, []string{`\['lastModified'\]`}, true},
		{"bool is not int", `{"a":true}`, `{"a":1}`, nil, false},
		{"null", `{"a":null}`, `{"a":null}`, nil, true},
		{"list item differs", `[{"a":1},{"a":2}]`, `[{"a":1},{"a":3}]`, nil, false},
		{"big integers", `123456789012345678901234567890`, `123456789012345678901234567890`, nil, true},
		{"type change", `{"a":[]}`, `{"a":{}}`, nil, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			d, err := conformance.Compare([]byte(c.got), []byte(c.want), c.exclude)
			if err != nil {
				t.Fatal(err)
			}
			if (len(d) == 0) != c.same {
				t.Errorf("Compare(%s, %s, %q) = %v, want same=%v", c.got, c.want, c.exclude, d, c.same)
			}
		})
	}
}

func TestCompareNamesThePath(t *testing.T) {
	t.Parallel()
	d, err := conformance.Compare([]byte(`{"p":{"v":[{"double":30}]}}`), []byte(`{"p":{"v":[{"double":30.0}]}}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(d) != 1 || d[0].Path != "root['p']['v'][0]['double']" || d[0].Kind != "type" || d[0].Got != "30" || d[0].Want != "30.0" {
		t.Errorf("Compare = %#v", d)
	}
}

func TestCompareRefusesBadInput(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ got, want, re string }{
		{`{`, `{}`, ""}, {`{}`, `[`, ""}, {`{} {}`, `{}`, ""}, {`{}`, `{}`, "("},
	} {
		var ex []string
		if c.re != "" {
			ex = []string{c.re}
		}
		if _, err := conformance.Compare([]byte(c.got), []byte(c.want), ex); err == nil {
			t.Errorf("Compare(%q, %q, %q): no error", c.got, c.want, c.re)
		}
	}
}

func TestParseSendsAsPythonRequests(t *testing.T) {
	t.Parallel()
	f, err := conformance.Parse("x.json", []byte(`[
	 {"request":{"url":"/a?z=1","params":{"async":false,"b":"x y:z","l":["1","2"],"n":null,"c":1}}},
	 {"request":{"wait":4}},
	 {"request":{"url":"/b","skip":"not today","method":"get"},"response":[{"x":1}]},
	 {"request":{"url":"/c","json":{}},"response":{"status_codes":[400],"json":{"error":"E"},"exclude_regex_paths":["m"]}}
	]`))
	if err != nil {
		t.Fatal(err)
	}
	s := f.Steps
	want := []conformance.Param{{"async", "False"}, {"b", "x y:z"}, {"l", "1"}, {"l", "2"}, {"c", "1"}}
	if len(s) != 4 || len(s[0].Request.Params) != len(want) {
		t.Fatalf("steps = %+v", s)
	}
	for i, p := range want {
		if s[0].Request.Params[i] != p {
			t.Errorf("param %d = %v, want %v", i, s[0].Request.Params[i], p)
		}
	}
	if s[0].Request.Method != "post" || !s[1].Request.Wait || s[2].Request.Skip != "not today" ||
		s[2].Response.JSON != nil || string(s[3].Request.JSON) != "{}" || s[3].Response.StatusCodes[0] != 400 {
		t.Errorf("steps = %+v", s)
	}
}
