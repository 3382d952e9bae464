package gms

import "context"

// LinkAssetVersion is DataHub's linkAssetVersion mutation
// (LinkAssetVersionResolver): with the entityVersioning flag off it is
// refused with a Java Error that DataHub's GraphQL layer does not map (an
// unknown error); on, it links entity into versionSet as [Core.LinkVersion]
// does and returns the version set's URN, or "" (GraphQL null) when the
// entity was linked to that set already.
func (c *Core) LinkAssetVersion(ctx context.Context, versionSet, entity string, in VersionInput, actor string) (string, error) {
	if !c.opts.EntityVersioning {
		return "", &Error{Kind: Internal, Index: -1}
	}
	if err := checkURNs(versionSet, entity); err != nil {
		return "", err
	}
	linked, err := c.LinkVersion(ctx, versionSet, entity, in, actor)
	if err != nil || !linked {
		return "", err
	}
	return versionSet, nil
}

// UnlinkAssetVersion is DataHub's unlinkAssetVersion mutation
// (UnlinkAssetVersionResolver): refused as [Core.LinkAssetVersion] is when
// the flag is off; on, it unlinks entity as [Core.UnlinkVersion] does and
// returns the version set's URN, or "" (GraphQL null) when nothing was
// unlinked.
func (c *Core) UnlinkAssetVersion(ctx context.Context, versionSet, entity string) (string, error) {
	if !c.opts.EntityVersioning {
		return "", &Error{Kind: Internal, Index: -1}
	}
	if err := checkURNs(versionSet, entity); err != nil {
		return "", err
	}
	urns, err := c.UnlinkVersion(ctx, versionSet, entity)
	if err != nil || len(urns) == 0 {
		return "", err
	}
	return versionSet, nil
}
