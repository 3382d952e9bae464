package index

import (
	"strings"

	"github.com/catalogkit/datahub-go/urn"
)

// Schema-field lineage: DataHub's update-indices hook derives a DownstreamOf
// edge from each downstream to each upstream of every fineGrainedLineages
// element of an upstreamLineage (dataset) or dataJobInputOutput (data job)
// aspect, between schemaField URNs, going through the element's query (a
// dataset's) or the data job itself. The entity whose aspect holds them keeps
// them in its document: fieldFine holds "downstream\x00upstream\x00query",
// and fieldFineDown and fieldFineUp the two ends, whose postings find the
// holders of a schema field's edges.
const (
	fieldFine     = "\x00fine"
	fieldFineDown = "\x00fineDown"
	fieldFineUp   = "\x00fineUp"
)

// fineGrainedAspects are the aspects whose fineGrainedLineages DataHub turns
// into schema-field lineage edges.
var fineGrainedAspects = map[string]bool{"upstreamLineage": true, "dataJobInputOutput": true}

// extractFineGrained appends the schema-field lineage edges of aspect's
// decoded JSON v to out. An element without downstreams or upstreams ends
// the list, as in DataHub.
func extractFineGrained(aspect string, v any, out map[string][]string) {
	if !fineGrainedAspects[aspect] {
		return
	}
	m, _ := v.(map[string]any)
	list, _ := m["fineGrainedLineages"].([]any)
	for _, el := range list {
		fg, _ := el.(map[string]any)
		downs, _ := fg["downstreams"].([]any)
		ups, _ := fg["upstreams"].([]any)
		if len(downs) == 0 || len(ups) == 0 {
			break
		}
		query, _ := fg["query"].(string)
		for _, d := range downs {
			down, ok := d.(string)
			if !ok {
				continue
			}
			for _, u := range ups {
				up, ok := u.(string)
				if !ok {
					continue
				}
				out[fieldFine] = append(out[fieldFine], down+"\x00"+up+"\x00"+query)
				out[fieldFineDown] = append(out[fieldFineDown], down)
				out[fieldFineUp] = append(out[fieldFineUp], up)
			}
		}
	}
}

// fineEdges calls yield with the other end and the via entity of each
// schema-field lineage edge of the schema field u in the walk's direction
// (its upstreams, or its downstreams), from the holders' documents; x.mu is
// held.
func (x *Index) fineEdges(u string, upstream bool, yield func(other, via string)) {
	if entityTypeOf(u) != "schemaField" {
		return
	}
	holdersField := fieldFineUp
	if upstream {
		holdersField = fieldFineDown
	}
	for _, i := range x.indices {
		if i.search == nil {
			continue
		}
		for h := range i.search.post[holdersField][u] {
			d := x.docOf(h)
			if d == nil {
				continue
			}
			for _, e := range d.fields[fieldFine] {
				parts := strings.SplitN(e, "\x00", 3)
				if len(parts) != 3 {
					continue
				}
				down, up, via := parts[0], parts[1], parts[2]
				if d.entity == "dataJob" {
					via = h
				}
				switch {
				case upstream && down == u:
					yield(up, via)
				case !upstream && up == u:
					yield(down, via)
				}
			}
		}
	}
}

// fineNeighbors returns the schema fields u has a schema-field lineage edge
// to in the walk's direction; x.mu is held.
func (x *Index) fineNeighbors(u string, upstream bool) []string {
	var out []string
	x.fineEdges(u, upstream, func(other, _ string) { out = append(out, other) })
	return out
}

// fineVia returns the via entity of the schema-field lineage edge between
// u and v ("" for none); x.mu is held.
func (x *Index) fineVia(u, v string, upstream bool) string {
	via := ""
	x.fineEdges(u, upstream, func(other, w string) {
		if other == v && via == "" {
			via = w
		}
	})
	return via
}

// schemaFieldParent returns the entity a schema field URN belongs to (u
// itself when it is not a schema field URN), as DataHub's grouping of
// schema fields into their datasets.
func schemaFieldParent(u string) string {
	if entityTypeOf(u) != "schemaField" {
		return u
	}
	sf, err := urn.ParseSchemaField(u)
	if err != nil {
		return u
	}
	return sf.Parent().String()
}
