// Package generate builds the Go tables of package pdl from DataHub's PDL tree and its entity
// registry.
package generate

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/catalogkit/datahub-go/internal/pdl/gen/pdlparse"
)

// registryFile is entity-registry.yml's path under DataHub's reference directory.
const registryFile = "metadata-models/src/main/resources/entity-registry.yml"

// source is every declaration found, by fully qualified name, with where it came from.
type source struct {
	decls  map[string]*pdlparse.Decl
	origin map[string]string // name -> "pdl", "snapshot" or "extra"
}

func (s *source) add(d *pdlparse.Decl, origin string) {
	if _, ok := s.decls[d.Name]; ok {
		return // first source wins
	}
	s.decls[d.Name] = d
	s.origin[d.Name] = origin
}

func loadPDLDir(s *source, dir, origin string) error {
	var files []string
	err := filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !e.IsDir() && strings.HasSuffix(path, ".pdl") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		return err
	}
	slices.Sort(files)
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		pf, err := pdlparse.Parse(f, src)
		if err != nil {
			return err
		}
		for _, d := range pf.Decls {
			s.add(d, origin)
		}
	}
	return nil
}

// pegasusRoots are the directories of DataHub's PDL tree (datahub-pegasus) that hold PDL files.
var pegasusRoots = []string{
	"metadata-models/src/main/pegasus",
	"li-utils/src/main/pegasus",
}

// loadPegasus reads every PDL file of DataHub's PDL tree under dir (both roots must exist).
func loadPegasus(dir string) (*source, error) {
	s := &source{decls: map[string]*pdlparse.Decl{}, origin: map[string]string{}}
	for _, r := range pegasusRoots {
		root := filepath.Join(dir, filepath.FromSlash(r))
		if _, err := os.Stat(root); err != nil {
			return nil, fmt.Errorf("DataHub PDL tree: %w", err)
		}
		if err := loadPDLDir(s, root, "pdl"); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// registryEntity is an entity read from entity-registry.yml.
type registryEntity struct {
	Name, KeyAspect string
	Aspects         []string
}

// parseRegistry reads the entities section of entity-registry.yml. It understands the plain
// block style the file uses: "- name:", "keyAspect:", and an "aspects:" list.
func parseRegistry(data []byte) ([]registryEntity, error) {
	var out []registryEntity
	sc := bufio.NewScanner(bytes.NewReader(data))
	inEntities, inAspects := false, false
	aspectIndent := -1
	line := 0
	for sc.Scan() {
		line++
		raw := sc.Text()
		if i := strings.Index(raw, " #"); i >= 0 {
			raw = raw[:i]
		}
		if strings.HasPrefix(strings.TrimSpace(raw), "#") {
			continue
		}
		trimmed := strings.TrimSpace(raw)
		if trimmed == "" {
			continue
		}
		indent := len(raw) - len(strings.TrimLeft(raw, " "))
		if indent == 0 {
			inEntities = trimmed == "entities:"
			inAspects = false
			continue
		}
		if !inEntities {
			continue
		}
		if inAspects {
			if strings.HasPrefix(trimmed, "- ") && (aspectIndent < 0 || indent == aspectIndent) {
				aspectIndent = indent
				name := strings.TrimSpace(strings.TrimPrefix(trimmed, "- "))
				if name == "" || strings.ContainsAny(name, ": ") {
					return nil, fmt.Errorf("entity-registry.yml:%d: bad aspect entry %q", line, trimmed)
				}
				e := &out[len(out)-1]
				if !slices.Contains(e.Aspects, name) {
					e.Aspects = append(e.Aspects, name)
				}
				continue
			}
			inAspects = false
		}
		if name, ok := strings.CutPrefix(trimmed, "- name:"); ok {
			out = append(out, registryEntity{Name: strings.TrimSpace(name)})
			continue
		}
		if len(out) == 0 {
			continue
		}
		if k, ok := strings.CutPrefix(trimmed, "keyAspect:"); ok {
			out[len(out)-1].KeyAspect = strings.TrimSpace(k)
			continue
		}
		if trimmed == "aspects:" {
			inAspects, aspectIndent = true, -1
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	for _, e := range out {
		if e.Name == "" || e.KeyAspect == "" {
			return nil, fmt.Errorf("entity-registry.yml: entity %q without name or key aspect", e.Name)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("entity-registry.yml: no entities found")
	}
	return out, nil
}
