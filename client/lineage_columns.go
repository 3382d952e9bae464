package client

import (
	"context"
	"errors"
	"fmt"
	"slices"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/urn"
)

// Columns returns the columns one hop upstream or downstream of field (a
// column of a dataset), from the column-level lineage datasets record in
// their upstreamLineage (what [Lineage.Add] writes with
// [WithColumnLineage], [WithColumnMatching] or other writers'
// fineGrainedLineages), sorted by URN, each once. Upstream reads the
// field's dataset's upstreamLineage; Downstream reads the upstreamLineage
// of each dataset one hop downstream of the field's dataset. A field
// without column lineage has none (an empty result, no error); field must
// be a column of a dataset.
func (l *Lineage) Columns(ctx context.Context, field urn.SchemaField, direction LineageDirection) ([]urn.SchemaField, error) {
	if err := checkURN(field); err != nil {
		return nil, err
	}
	ds := field.Parent()
	if ds == nil || ds.EntityType() != urn.TypeDataset {
		return nil, fmt.Errorf("client: column lineage of %s: the field is not a dataset's: %w", field, datahub.ErrValidation)
	}
	if direction != Upstream && direction != Downstream {
		return nil, fmt.Errorf("client: lineage direction %q: want Upstream or Downstream: %w", direction, datahub.ErrValidation)
	}
	f := field.String()
	seen := map[string]bool{}
	var out []urn.SchemaField
	add := func(s string) error {
		if seen[s] {
			return nil
		}
		seen[s] = true
		u, err := urn.Parse(s)
		if err != nil {
			return fmt.Errorf("client: column lineage of %s: %w", field, err)
		}
		if sf, ok := u.(urn.SchemaField); ok {
			out = append(out, sf)
		}
		return nil
	}
	fineGrained := func(u urn.URN) ([]aspects.FineGrainedLineage, error) {
		ul, err := GetAspect[aspects.UpstreamLineage](ctx, l.c, u)
		if errors.Is(err, datahub.ErrNotFound) {
			return nil, nil
		}
		return ul.FineGrainedLineages, err
	}
	if direction == Upstream {
		fgs, err := fineGrained(ds)
		if err != nil {
			return nil, err
		}
		for _, fg := range fgs {
			if slices.Contains(fg.Downstreams, f) {
				for _, u := range fg.Upstreams {
					if err := add(u); err != nil {
						return nil, err
					}
				}
			}
		}
	} else {
		downs, err := l.Get(ctx, ds, Downstream, 1, EntityType(urn.TypeDataset))
		if err != nil {
			return nil, err
		}
		for _, d := range downs {
			du, err := urn.Parse(d.URN)
			if err != nil {
				return nil, fmt.Errorf("client: column lineage of %s: %w", field, err)
			}
			fgs, err := fineGrained(du)
			if err != nil {
				return nil, err
			}
			for _, fg := range fgs {
				if slices.Contains(fg.Upstreams, f) {
					for _, u := range fg.Downstreams {
						if err := add(u); err != nil {
							return nil, err
						}
					}
				}
			}
		}
	}
	slices.SortFunc(out, func(a, b urn.SchemaField) int {
		if a.String() < b.String() {
			return -1
		}
		if a.String() > b.String() {
			return 1
		}
		return 0
	})
	return out, nil
}
