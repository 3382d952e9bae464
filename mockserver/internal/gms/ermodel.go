package gms

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"fmt"
)

// The texts of the ER model relationship mutations (DataHub's
// Create/UpdateERModelRelationshipResolver; the inputs are printed as the
// mock prints them).
const (
	MsgERCreateFailed = "Failed to create erModelRelationship to resource with input %s"
	MsgERUpdateFailed = "Failed to update erModelRelationship to resource with input %s"
)

// ERModelRelationship is DataHub's ERModelRelationshipUpdateInput: its
// properties and its editable properties, each nil when not given.
type ERModelRelationship struct {
	Properties *ERModelProperties
	// EditableSet says Name and Description (the editableProperties) are
	// given; a blank one is left out, as DataHub does.
	EditableSet           bool
	EditName, Description *string
}

// ERModelProperties is DataHub's ERModelRelationshipPropertiesInput.
type ERModelProperties struct {
	Name, Source, Destination string
	// FieldMappings are the (sourceField, destinationField) pairs (nil:
	// none given).
	FieldMappings [][2]string
	// Cardinality is ONE_ONE, ONE_N, N_ONE or N_N ("": derived from the
	// mappings).
	Cardinality string
	// Created stamps the creation now; else CreatedBy and CreatedAt, when
	// both set, are the creation stamp.
	Created   bool
	CreatedAt *int64
	CreatedBy *string
}

// String prints the input in the mock's messages.
func (r ERModelRelationship) String() string {
	if r.Properties == nil {
		return "{}"
	}
	return fmt.Sprintf("{name=%s, source=%s, destination=%s}", r.Properties.Name, r.Properties.Source, r.Properties.Destination)
}

// ERModelRelationshipURN is the URN DataHub's createERModelRelationship
// gives a relationship: the md5 of the JSON key of its name and its two
// datasets, the lower one first (datahub_guid).
func ERModelRelationshipURN(name, source, destination string) string {
	low, high := source, destination
	if source > destination {
		low, high = destination, source
	}
	key := `{"Destination":"` + low + `","ERModelRelationName":"` + name + `","Source":"` + high + `"}`
	sum := md5.Sum([]byte(key))
	return "urn:li:erModelRelationship:" + hex.EncodeToString(sum[:])
}

// CreateERModelRelationship writes a relationship between two datasets as
// DataHub's createERModelRelationship and returns its URN (see
// [ERModelRelationshipURN]); an existing one is overwritten.
func (c *Core) CreateERModelRelationship(ctx context.Context, in ERModelRelationship) (string, error) {
	if in.Properties == nil {
		return "", errorf(BadArgument, MsgERCreateFailed, in)
	}
	p := in.Properties
	u := ERModelRelationshipURN(p.Name, p.Source, p.Destination)
	if err := c.writeERModel(ctx, u, in); err != nil {
		if e := AsError(err); e != nil && e.Kind == Invalid {
			return "", errorf(Internal, MsgERCreateFailed, in)
		}
		return "", err
	}
	return u, nil
}

// UpdateERModelRelationship writes the parts given of relationship u as
// DataHub's updateERModelRelationship (whole aspects; the entity is created
// if it does not exist).
func (c *Core) UpdateERModelRelationship(ctx context.Context, u string, in ERModelRelationship) error {
	if err := checkURNs(u); err != nil {
		return err
	}
	if EntityTypeOf(u) != "erModelRelationship" {
		return errorf(BadArgument, MsgUpdateWrongType, u, "erModelRelationship")
	}
	err := c.writeERModel(ctx, u, in)
	if e := AsError(err); e != nil && e.Kind == Invalid {
		return errorf(Internal, MsgERUpdateFailed, in)
	}
	return err
}

// writeERModel writes the aspects of in on u in one batch.
func (c *Core) writeERModel(ctx context.Context, u string, in ERModelRelationship) error {
	stamp := c.stamp(ctx)
	aspects := map[string]any{}
	if p := in.Properties; p != nil {
		if err := checkURNs(p.Source, p.Destination); err != nil {
			return err
		}
		props := map[string]any{"name": p.Name, "source": p.Source, "destination": p.Destination}
		if p.FieldMappings != nil {
			if len(p.FieldMappings) > 0 {
				var ms []any
				for _, m := range p.FieldMappings {
					ms = append(ms, map[string]any{"sourceField": m[0], "destinationField": m[1]})
				}
				props["relationshipFieldMappings"] = ms
				props["cardinality"] = p.Cardinality
				if p.Cardinality == "" {
					props["cardinality"] = cardinalityOf(p.FieldMappings)
				}
			}
			switch {
			case p.Created:
				props["created"] = stamp
			case p.CreatedBy != nil && p.CreatedAt != nil && *p.CreatedAt != 0:
				if err := checkURNs(*p.CreatedBy); err != nil {
					return err
				}
				props["created"] = map[string]any{"actor": *p.CreatedBy, "time": *p.CreatedAt}
			}
			props["lastModified"] = stamp
		}
		aspects["erModelRelationshipProperties"] = props
	}
	if in.EditableSet {
		ed := map[string]any{}
		if in.EditName != nil && trimmed(*in.EditName) {
			ed["name"] = *in.EditName
		}
		if in.Description != nil && trimmed(*in.Description) {
			ed["description"] = *in.Description
		}
		aspects["editableERModelRelationshipProperties"] = ed
	}
	if len(aspects) == 0 {
		return nil
	}
	return c.writeAll(ctx, u, aspects)
}

// cardinalityOf derives a relationship's cardinality from its field
// mappings: a side whose fields repeat is the N side.
func cardinalityOf(ms [][2]string) string {
	src, dst := map[string]bool{}, map[string]bool{}
	for _, m := range ms {
		src[m[0]], dst[m[1]] = true, true
	}
	srcOne, dstOne := len(src) == len(ms), len(dst) == len(ms)
	switch {
	case srcOne && dstOne:
		return "ONE_ONE"
	case srcOne:
		return "N_ONE"
	case dstOne:
		return "ONE_N"
	}
	return "N_N"
}

// trimmed is whether s has a non-blank character.
func trimmed(s string) bool {
	for _, r := range s {
		if r > ' ' {
			return true
		}
	}
	return false
}
