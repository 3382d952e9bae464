package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestReadmeFlagTable checks the flag table of mockserver/README.md against
// the flags -h prints: every flag is listed once and no other, and where -h
// shows a default the table's default column holds it.
func TestReadmeFlagTable(t *testing.T) {
	t.Parallel()
	var stdout, stderr bytes.Buffer
	if code := run(t.Context(), []string{"-h"}, &stdout, &stderr); code != 2 {
		t.Fatalf("run -h = %d, want 2; stderr:\n%s", code, stderr.String())
	}
	var flags []string
	defaults := map[string]string{}
	flagLine := regexp.MustCompile(`^  -(\S+)`)
	defaultOf := regexp.MustCompile(`\(default "?([^"]*?)"?\)$`)
	var last string
	for line := range strings.Lines(stderr.String()) {
		line = strings.TrimRight(line, "\n")
		if m := flagLine.FindStringSubmatch(line); m != nil {
			last = m[1]
			flags = append(flags, last)
		}
		if m := defaultOf.FindStringSubmatch(line); m != nil && last != "" {
			defaults[last] = m[1]
		}
	}
	if len(flags) < 10 {
		t.Fatalf("-h printed %d flags:\n%s", len(flags), stderr.String())
	}

	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	cells := map[string]string{}
	row := regexp.MustCompile("^\\| `-([a-z-]+)[^`]*` \\| ([^|]*) \\|")
	for line := range strings.Lines(string(b)) {
		if m := row.FindStringSubmatch(line); m != nil {
			listed = append(listed, m[1])
			cells[m[1]] = m[2]
		}
	}
	slices.Sort(listed)
	if !slices.Equal(listed, flags) { // -h prints them sorted
		t.Errorf("the README's flag table lists %v; -h prints %v", listed, flags)
	}
	for name, def := range defaults {
		if cell, ok := cells[name]; ok && !strings.Contains(cell, "`"+def+"`") {
			t.Errorf("the README's flag table gives -%s the default %s; -h says %q", name, cell, def)
		}
	}
}
