package generate

import "github.com/catalogkit/datahub-go/internal/pdl/gen/pdlparse"

// LoadTree parses every PDL file under dir, in sorted path order, and returns
// the declarations by fully qualified name; the first declaration of a name
// wins. Other generators (the aspects' Go types) read the PDL tree through it.
func LoadTree(dir string) (map[string]*pdlparse.Decl, error) {
	s := &source{decls: map[string]*pdlparse.Decl{}, origin: map[string]string{}}
	if err := loadPDLDir(s, dir, "pdl"); err != nil {
		return nil, err
	}
	return s.decls, nil
}
