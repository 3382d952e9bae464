package index

import (
	"bytes"
	"encoding/json"
)

// Removed reports whether an entity's status aspect (its JSON) says the
// entity is soft-deleted: it holds "removed":true.
func Removed(status json.RawMessage) bool {
	return bytes.Contains(status, []byte(`"removed":true`))
}

// Page is a page of an entity index's documents in URN order.
type Page struct {
	// URNs are the page's entities, at most the count asked for.
	URNs []string
	// Total counts the index's documents (the removed left out unless
	// asked for), wherever the page starts.
	Total int
}

// Page returns up to count URNs of the named entity index, in URN order
// after the URN after ("": from the first), documents whose status says
// removed ([Removed]) left out unless includeRemoved. It seeks to after and
// takes Total from the counts the index keeps, so that a page costs
// O(count · log n) (plus the removed documents it steps over), not a walk
// of the index. A name that is no entity index gives an empty page.
func (x *Index) Page(name, after string, count int, includeRemoved bool) Page {
	x.Sync()
	x.mu.Lock()
	defer x.mu.Unlock()
	i := x.indices[name]
	if i == nil || i.info.Kind != EntityIndex {
		return Page{}
	}
	p := Page{Total: i.info.Docs}
	if !includeRemoved {
		p.Total -= i.removed
	}
	if count <= 0 {
		return p
	}
	take := func(d *Document) bool {
		x.tested++
		if d.removed && !includeRemoved {
			return true
		}
		p.URNs = append(p.URNs, d.URN)
		return len(p.URNs) < count
	}
	if after == "" {
		i.docs.Ascend(take)
	} else {
		i.docs.AscendGreaterOrEqual(&Document{ID: after + "\x00"}, take)
	}
	return p
}
