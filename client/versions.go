package client

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/urn"
)

// ErrOtherVersionSet is matched (errors.Is) by the error of a link of an
// asset that is a version in another version set already: DataHub keeps
// an asset in one set, so unlink it first.
var ErrOtherVersionSet = errors.New("client: the asset is a version of another version set")

// Versions links assets (models, datasets, ...) into DataHub's version
// sets, as DataHub's Python client does (DataHubGraph's
// link_asset_to_version_set and friends): through the GraphQL mutations
// linkAssetVersion and unlinkAssetVersion, which DataHub serves only with
// its entityVersioning feature flag on (ENTITY_VERSIONING_ENABLED=true;
// off, as in DataHub's quickstart, they fail with DataHub's "unknown
// error", a *GraphQLError of code 500). Each link makes the asset the
// set's latest version, with a sort id DataHub generates after the
// previous latest's. Get it with [Client.Versions].
type Versions struct {
	c *Client
}

// Versions returns the version set operations of c.
func (c *Client) Versions() *Versions { return &Versions{c: c} }

// VersionOption is an option of [Versions.Link].
type VersionOption struct{ apply func(*versionSettings) }

type versionSettings struct {
	comment *string
	aliases []string
}

// WithVersionComment records a comment about the version (what changed).
func WithVersionComment(comment string) VersionOption {
	return VersionOption{func(s *versionSettings) { s.comment = &comment }}
}

// WithVersionAliases gives the version aliases (such as "champion"),
// written to the asset's versionProperties after the link (DataHub's
// link mutation takes none); they replace the aliases the version had.
func WithVersionAliases(aliases ...string) VersionOption {
	return VersionOption{func(s *versionSettings) { s.aliases = slices.Clone(aliases) }}
}

// Version is one asset of a version set.
type Version struct {
	// URN is the versioned asset.
	URN urn.URN
	// Label is the version's label, such as "2" or "2025-01-31".
	Label string
	// Aliases are the version's aliases.
	Aliases []string
	// Comment is the comment given when it was linked ("": none).
	Comment string
	// SortID orders the versions of the set (DataHub's sortId).
	SortID string
	// Latest says whether it is the set's latest version.
	Latest bool
}

// VersionSetInfo is a version set with its versions.
type VersionSetInfo struct {
	URN urn.VersionSet
	// Latest is the set's latest version (its versionSetProperties).
	Latest urn.URN
	// Versions are the set's versions, the latest first (by sort id,
	// descending).
	Versions []Version
}

// Link links asset into set as its latest version, labelled label, as
// Python's link_asset_to_version_set: a zero set makes a new one with a
// random id for the asset's entity type. It returns the set, and linked
// false when the asset was in it already (the link then writes nothing
// but the aliases given). An asset in another set fails with an error
// matching [ErrOtherVersionSet]; a set of another entity type with
// DataHub's refusal (a *GraphQLError matching datahub.ErrValidation).
func (v *Versions) Link(ctx context.Context, asset urn.URN, set urn.VersionSet, label string, opts ...VersionOption) (_ urn.VersionSet, linked bool, err error) {
	var s versionSettings
	for _, o := range opts {
		o.apply(&s)
	}
	if asset == nil {
		return urn.VersionSet{}, false, fmt.Errorf("client: link version: no asset: %w", datahub.ErrValidation)
	}
	if label == "" {
		return urn.VersionSet{}, false, fmt.Errorf("client: link %s: empty version label: %w", asset, datahub.ErrValidation)
	}
	if set == (urn.VersionSet{}) {
		if set, err = urn.NewVersionSet(rand.Text(), asset.EntityType()); err != nil {
			return urn.VersionSet{}, false, fmt.Errorf("client: link %s: %w", asset, err)
		}
	}
	cur, has, err := v.properties(ctx, asset)
	if err != nil {
		return urn.VersionSet{}, false, fmt.Errorf("client: link %s to %s: %w", asset, set, err)
	}
	if has && cur.VersionSet != set.String() {
		return urn.VersionSet{}, false, fmt.Errorf("client: link %s to %s: it is a version of %s: %w", asset, set, cur.VersionSet, ErrOtherVersionSet)
	}
	if !has {
		input := map[string]any{"versionSet": set.String(), "linkedEntity": asset.String(), "version": label}
		if s.comment != nil {
			input["comment"] = *s.comment
		}
		raw, err := v.c.GraphQL(ctx, linkVersionMutation, map[string]any{"input": input}, "")
		if err != nil {
			return urn.VersionSet{}, false, fmt.Errorf("client: link %s to %s: %w", asset, set, err)
		}
		var answer struct {
			LinkAssetVersion *struct{ URN string }
		}
		if err := json.Unmarshal(raw, &answer); err != nil {
			return urn.VersionSet{}, false, fmt.Errorf("client: link %s to %s: bad answer: %w", asset, set, err)
		}
		linked = answer.LinkAssetVersion != nil
	}
	if s.aliases != nil {
		err := Modify(ctx, v.c, asset, func(p *aspects.VersionProperties) error {
			p.Aliases = make([]aspects.VersionTag, 0, len(s.aliases))
			for _, a := range s.aliases {
				p.Aliases = append(p.Aliases, aspects.VersionTag{VersionTag: aspects.Ptr(a)})
			}
			return nil
		})
		if err != nil {
			return set, linked, fmt.Errorf("client: link %s to %s: aliases: %w", asset, set, err)
		}
	}
	return set, linked, nil
}

const linkVersionMutation = `mutation linkAssetVersion($input: LinkVersionInput!) { linkAssetVersion(input: $input) { urn } }`

const unlinkVersionMutation = `mutation unlinkAssetVersion($input: UnlinkVersionInput!) { unlinkAssetVersion(input: $input) { urn } }`

// LinkAfter links asset into the version set of versioned, an asset
// linked already, as its latest version (Python's
// link_asset_to_versioned_asset). The two must be of one entity type.
func (v *Versions) LinkAfter(ctx context.Context, asset, versioned urn.URN, label string, opts ...VersionOption) (urn.VersionSet, bool, error) {
	if asset == nil || versioned == nil {
		return urn.VersionSet{}, false, fmt.Errorf("client: link version: no asset: %w", datahub.ErrValidation)
	}
	if asset.EntityType() != versioned.EntityType() {
		return urn.VersionSet{}, false, fmt.Errorf("client: link %s after %s: not of one entity type: %w", asset, versioned, datahub.ErrValidation)
	}
	cur, has, err := v.properties(ctx, versioned)
	if err != nil {
		return urn.VersionSet{}, false, fmt.Errorf("client: link %s after %s: %w", asset, versioned, err)
	}
	if !has {
		return urn.VersionSet{}, false, fmt.Errorf("client: link %s after %s: %s is not versioned: %w", asset, versioned, versioned, datahub.ErrNotFound)
	}
	set, err := urn.ParseVersionSet(cur.VersionSet)
	if err != nil {
		return urn.VersionSet{}, false, fmt.Errorf("client: link %s after %s: %w", asset, versioned, err)
	}
	return v.Link(ctx, asset, set, label, opts...)
}

// Unlink takes asset out of its version set (Python's
// unlink_asset_from_version_set) and returns the set; unlinked is false
// when the asset was in none. When it was the latest, the version before
// it becomes the latest; the set goes when its last version does.
func (v *Versions) Unlink(ctx context.Context, asset urn.URN) (_ urn.VersionSet, unlinked bool, err error) {
	if asset == nil {
		return urn.VersionSet{}, false, fmt.Errorf("client: unlink version: no asset: %w", datahub.ErrValidation)
	}
	cur, has, err := v.properties(ctx, asset)
	if err != nil || !has {
		if err != nil {
			err = fmt.Errorf("client: unlink %s: %w", asset, err)
		}
		return urn.VersionSet{}, false, err
	}
	set, err := urn.ParseVersionSet(cur.VersionSet)
	if err != nil {
		return urn.VersionSet{}, false, fmt.Errorf("client: unlink %s: %w", asset, err)
	}
	ok, err := v.unlink(ctx, set, asset)
	return set, ok, err
}

// UnlinkLatest takes the latest version out of set (Python's
// unlink_latest_asset_from_version_set) and returns it. A set that does
// not exist is an error matching datahub.ErrNotFound.
func (v *Versions) UnlinkLatest(ctx context.Context, set urn.VersionSet) (urn.URN, error) {
	props, err := GetAspect[aspects.VersionSetProperties](ctx, v.c, set)
	if err != nil {
		return nil, fmt.Errorf("client: unlink the latest version of %s: %w", set, err)
	}
	latest, err := urn.Parse(props.Latest)
	if err != nil {
		return nil, fmt.Errorf("client: unlink the latest version of %s: %w", set, err)
	}
	if _, err := v.unlink(ctx, set, latest); err != nil {
		return nil, err
	}
	return latest, nil
}

func (v *Versions) unlink(ctx context.Context, set urn.VersionSet, asset urn.URN) (bool, error) {
	raw, err := v.c.GraphQL(ctx, unlinkVersionMutation, map[string]any{"input": map[string]any{
		"versionSet": set.String(), "unlinkedEntity": asset.String()}}, "")
	if err != nil {
		return false, fmt.Errorf("client: unlink %s from %s: %w", asset, set, err)
	}
	var answer struct {
		UnlinkAssetVersion *struct{ URN string }
	}
	if err := json.Unmarshal(raw, &answer); err != nil {
		return false, fmt.Errorf("client: unlink %s from %s: bad answer: %w", asset, set, err)
	}
	return answer.UnlinkAssetVersion != nil, nil
}

// Get reads set: its latest version (versionSetProperties) and its
// versions, found by a search of the set's entity type on the versionSet
// field (so a version linked a moment ago may be missing where indexing
// lags) and each read back (versionProperties). A set that does not exist
// is an error matching datahub.ErrNotFound.
func (v *Versions) Get(ctx context.Context, set urn.VersionSet) (VersionSetInfo, error) {
	props, err := GetAspect[aspects.VersionSetProperties](ctx, v.c, set)
	if err != nil {
		return VersionSetInfo{}, fmt.Errorf("client: version set %s: %w", set, err)
	}
	out := VersionSetInfo{URN: set}
	if out.Latest, err = urn.Parse(props.Latest); err != nil {
		return VersionSetInfo{}, fmt.Errorf("client: version set %s: latest: %w", set, err)
	}
	filter := And(EntityType(set.EntityType_()), Field("versionSet", Equal, set.String()))
	for r, err := range v.c.Search().Results(ctx, "*", filter) {
		if err != nil {
			return VersionSetInfo{}, fmt.Errorf("client: version set %s: %w", set, err)
		}
		u, err := urn.Parse(r.URN)
		if err != nil {
			return VersionSetInfo{}, fmt.Errorf("client: version set %s: %w", set, err)
		}
		p, has, err := v.properties(ctx, u)
		if err != nil {
			return VersionSetInfo{}, fmt.Errorf("client: version set %s: %w", set, err)
		}
		if !has || p.VersionSet != set.String() {
			continue // unlinked since it was indexed
		}
		ver := Version{URN: u, SortID: p.SortID, Latest: u.String() == props.Latest}
		if p.Version.VersionTag != nil {
			ver.Label = *p.Version.VersionTag
		}
		if p.Comment != nil {
			ver.Comment = *p.Comment
		}
		for _, a := range p.Aliases {
			if a.VersionTag != nil {
				ver.Aliases = append(ver.Aliases, *a.VersionTag)
			}
		}
		out.Versions = append(out.Versions, ver)
	}
	slices.SortFunc(out.Versions, func(a, b Version) int {
		if a.SortID != b.SortID {
			if a.SortID > b.SortID {
				return -1
			}
			return 1
		}
		if a.URN.String() < b.URN.String() {
			return -1
		}
		return 1
	})
	return out, nil
}

// properties reads the versionProperties of u; has is false when there
// are none.
func (v *Versions) properties(ctx context.Context, u urn.URN) (aspects.VersionProperties, bool, error) {
	p, err := GetAspect[aspects.VersionProperties](ctx, v.c, u)
	if errors.Is(err, datahub.ErrNotFound) {
		return aspects.VersionProperties{}, false, nil
	}
	return p, err == nil && p.VersionSet != "", err
}
