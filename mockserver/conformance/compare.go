package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Difference is one place where an answer differs from what a fixture
// expects. Path is written as DataHub's runner writes it (root['a'][0]);
// Got and Want are JSON text, "" where the side has nothing at Path.
type Difference struct {
	Path string
	Kind string // "type", "value", "added", "removed"
	Got  string
	Want string
}

// String renders d on one line.
func (d Difference) String() string {
	switch d.Kind {
	case "added":
		return fmt.Sprintf("%s: only in the answer: %s", d.Path, d.Got)
	case "removed":
		return fmt.Sprintf("%s: missing from the answer, want %s", d.Path, d.Want)
	default:
		return fmt.Sprintf("%s: %s differs: got %s, want %s", d.Path, d.Kind, d.Got, d.Want)
	}
}

// Compare compares a JSON answer with the JSON a fixture expects the way
// DataHub's fixture runner does (Python's DeepDiff with ignore_order=True and
// exclude_regex_paths): the order of array items does not matter, nor does
// how many times an item repeats; an integer and a number written with a
// fraction or exponent (30 and 30.0) differ, as they do in Python; a path
// that an exclude expression (a Python regular expression searched in the
// path) matches is not compared, nor is anything under it. An empty result
// means the answer conforms.
func Compare(got, want []byte, exclude []string) ([]Difference, error) {
	g, err := decode(got)
	if err != nil {
		return nil, fmt.Errorf("answer: %w", err)
	}
	w, err := decode(want)
	if err != nil {
		return nil, fmt.Errorf("expected: %w", err)
	}
	c, err := newComparer(exclude)
	if err != nil {
		return nil, err
	}
	c.diff("root", g, w)
	return c.out, nil
}

// integer and float hold a JSON number as Python's json module reads it:
// an integer unless it has a fraction or an exponent.
type (
	integer struct{ v *big.Int }
	float   float64
)

func decode(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, fmt.Errorf("trailing data after the JSON value")
	}
	return convertNumbers(v)
}

func convertNumbers(v any) (any, error) {
	switch t := v.(type) {
	case json.Number:
		s := string(t)
		if strings.ContainsAny(s, ".eE") {
			f, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return nil, fmt.Errorf("number %s: %w", s, err)
			}
			return float(f), nil
		}
		i, ok := new(big.Int).SetString(s, 10)
		if !ok {
			return nil, fmt.Errorf("number %s is not an integer", s)
		}
		return integer{i}, nil
	case map[string]any:
		for k, e := range t {
			c, err := convertNumbers(e)
			if err != nil {
				return nil, err
			}
			t[k] = c
		}
	case []any:
		for i, e := range t {
			c, err := convertNumbers(e)
			if err != nil {
				return nil, err
			}
			t[i] = c
		}
	}
	return v, nil
}

type comparer struct {
	exclude []*regexp.Regexp
	out     []Difference
}

// newComparer compiles the exclude expressions; the fixtures' expressions
// are in the common subset of Python's and Go's syntax, and one that is not
// is an error rather than a silent mismatch.
func newComparer(exclude []string) (*comparer, error) {
	c := &comparer{}
	for _, e := range exclude {
		re, err := regexp.Compile(e)
		if err != nil {
			return nil, fmt.Errorf("exclude_regex_paths %q: %w", e, err)
		}
		c.exclude = append(c.exclude, re)
	}
	return c, nil
}

func (c *comparer) skip(path string) bool {
	for _, re := range c.exclude {
		if re.MatchString(path) {
			return true
		}
	}
	return false
}

// keyPath appends a dictionary key as Python's repr writes a string.
func keyPath(path, key string) string {
	q := "'"
	if strings.Contains(key, "'") && !strings.Contains(key, `"`) {
		q = `"`
	}
	var b strings.Builder
	b.WriteString(path)
	b.WriteString("[")
	b.WriteString(q)
	for _, r := range key {
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case string(r) == q:
			b.WriteString(`\` + q)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteString(q)
	b.WriteString("]")
	return b.String()
}

func indexPath(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

func kind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "bool"
	case integer:
		return "int"
	case float:
		return "float"
	case string:
		return "str"
	case []any:
		return "list"
	case map[string]any:
		return "dict"
	}
	return fmt.Sprintf("%T", v)
}

func text(v any) string {
	b, err := json.Marshal(plain(v))
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// plain turns the comparison's number types back into JSON numbers.
func plain(v any) any {
	switch t := v.(type) {
	case integer:
		return json.Number(t.v.String())
	case float:
		s := strconv.FormatFloat(float64(t), 'g', -1, 64)
		if !strings.ContainsAny(s, ".eEn") {
			s += ".0"
		}
		return json.Number(s)
	case map[string]any:
		m := make(map[string]any, len(t))
		for k, e := range t {
			m[k] = plain(e)
		}
		return m
	case []any:
		l := make([]any, len(t))
		for i, e := range t {
			l[i] = plain(e)
		}
		return l
	}
	return v
}

func (c *comparer) report(path, k string, got, want any) {
	d := Difference{Path: path, Kind: k}
	if k != "removed" {
		d.Got = text(got)
	}
	if k != "added" {
		d.Want = text(want)
	}
	c.out = append(c.out, d)
}

func (c *comparer) diff(path string, got, want any) {
	if c.skip(path) {
		return
	}
	if kind(got) != kind(want) {
		c.report(path, "type", got, want)
		return
	}
	switch g := got.(type) {
	case map[string]any:
		w := want.(map[string]any)
		for _, k := range sortedKeys(g) {
			p := keyPath(path, k)
			if wv, ok := w[k]; ok {
				c.diff(p, g[k], wv)
			} else if !c.skip(p) {
				c.report(p, "added", g[k], nil)
			}
		}
		for _, k := range sortedKeys(w) {
			p := keyPath(path, k)
			if _, ok := g[k]; !ok && !c.skip(p) {
				c.report(p, "removed", nil, w[k])
			}
		}
	case []any:
		c.diffList(path, g, want.([]any))
	case integer:
		if g.v.Cmp(want.(integer).v) != 0 {
			c.report(path, "value", got, want)
		}
	default:
		if got != want {
			c.report(path, "value", got, want)
		}
	}
}

// diffList compares two arrays as sets of items, as DeepDiff does with
// ignore_order and without report_repetition: each item is hashed with the
// excluded paths under its own index left out, and items whose hash the
// other side lacks differ. When as many items are missing as are extra they
// are paired in order and compared field by field, so that the difference
// names the field.
func (c *comparer) diffList(path string, got, want []any) {
	gh := make([]string, len(got))
	wh := make([]string, len(want))
	inWant := map[string]bool{}
	inGot := map[string]bool{}
	for i, v := range got {
		gh[i] = c.hash(indexPath(path, i), v)
		inGot[gh[i]] = true
	}
	for i, v := range want {
		wh[i] = c.hash(indexPath(path, i), v)
		inWant[wh[i]] = true
	}
	var extra, missing []int
	seen := map[string]bool{}
	for i, h := range gh {
		if !inWant[h] && !seen[h] {
			seen[h] = true
			extra = append(extra, i)
		}
	}
	for i, h := range wh {
		if !inGot[h] && !seen[h] {
			seen[h] = true
			missing = append(missing, i)
		}
	}
	if len(extra) == len(missing) {
		for n := range extra {
			before := len(c.out)
			c.diff(indexPath(path, extra[n]), got[extra[n]], want[missing[n]])
			if len(c.out) == before { // differs only under an index-specific exclusion
				c.report(indexPath(path, extra[n]), "value", got[extra[n]], want[missing[n]])
			}
		}
		return
	}
	for _, i := range extra {
		if p := indexPath(path, i); !c.skip(p) {
			c.report(p, "added", got[i], nil)
		}
	}
	for _, i := range missing {
		if p := indexPath(path, i); !c.skip(p) {
			c.report(p, "removed", nil, want[i])
		}
	}
}

// hash is a canonical text of v with the excluded paths left out, arrays as
// sorted sets of their items' hashes and numbers tagged with their Python
// type, as DeepHash computes for DeepDiff's ignore_order.
func (c *comparer) hash(path string, v any) string {
	switch t := v.(type) {
	case nil:
		return "N"
	case bool:
		return "b:" + strconv.FormatBool(t)
	case integer:
		return "i:" + t.v.String()
	case float:
		return "f:" + strconv.FormatFloat(float64(t), 'g', -1, 64)
	case string:
		return "s:" + strconv.Quote(t)
	case []any:
		hs := make([]string, 0, len(t))
		for i, e := range t {
			p := indexPath(path, i)
			if c.skip(p) {
				continue
			}
			hs = append(hs, c.hash(p, e))
		}
		slices.Sort(hs)
		hs = slices.Compact(hs)
		return "l[" + strings.Join(hs, ",") + "]"
	case map[string]any:
		var b strings.Builder
		b.WriteString("d{")
		for _, k := range sortedKeys(t) {
			p := keyPath(path, k)
			if c.skip(p) {
				continue
			}
			b.WriteString(strconv.Quote(k))
			b.WriteString(":")
			b.WriteString(c.hash(p, t[k]))
			b.WriteString(",")
		}
		b.WriteString("}")
		return b.String()
	}
	return fmt.Sprintf("?%v", v)
}

func sortedKeys(m map[string]any) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}
