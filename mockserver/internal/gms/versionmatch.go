package gms

import (
	"context"
	"encoding/json"
	"strconv"
)

// GetEnvelopedAspect returns version of aspect of urn as GMS's OpenAPI
// reads do (EntityServiceImpl.getEnvelopedVersionedAspects with its
// matchVersion): version 0 is the latest; another version is the history
// row of that number or, when there is none, the latest row if its
// systemMetadata.version is that number, so that the version a write
// answered reads back. Rest.li's AspectResource.get reads the history row
// only ([Core.GetAspect]). Errors are GetAspect's.
func (c *Core) GetEnvelopedAspect(ctx context.Context, urn, aspect string, version int64) (VersionedAspect, error) {
	a, err := c.GetAspect(ctx, urn, aspect, version)
	if err == nil || version <= 0 || AsError(err).Kind != NotFound {
		return a, err
	}
	latest, lerr := c.GetAspect(ctx, urn, aspect, 0)
	if lerr == nil && systemMetadataVersion(latest.SystemMetadata) == version {
		return latest, nil
	}
	return VersionedAspect{}, err
}

// systemMetadataVersion is the version a systemMetadata object carries
// (a decimal string, as GMS writes it), or -1.
func systemMetadataVersion(sm json.RawMessage) int64 {
	var v struct {
		Version *string `json:"version"`
	}
	if len(sm) == 0 || json.Unmarshal(sm, &v) != nil || v.Version == nil {
		return -1
	}
	n, err := strconv.ParseInt(*v.Version, 10, 64)
	if err != nil {
		return -1
	}
	return n
}
