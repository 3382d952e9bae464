package graphql

import "github.com/catalogkit/datahub-go/mockserver/internal/gms"

// The entity versioning mutations (LinkAssetVersionResolver,
// UnlinkAssetVersionResolver): a VersionSet, or null when nothing changed.
func init() {
	mutation("linkAssetVersion", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				VersionSet, LinkedEntity, Version string
				SourceTimestamp                   *int64
				SourceCreator, Comment            *string
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		i := in.Input
		set, err := c.Core().LinkAssetVersion(c, i.VersionSet, i.LinkedEntity, gms.VersionInput{Comment: i.Comment,
			Version: i.Version, SourceCreationTimestamp: i.SourceTimestamp, SourceCreator: i.SourceCreator}, gms.ActorOf(c))
		return versionSetAnswer(set, err)
	})
	mutation("unlinkAssetVersion", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				VersionSet, UnlinkedEntity *string
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		set, err := c.Core().UnlinkAssetVersion(c, strOr(in.Input.VersionSet), strOr(in.Input.UnlinkedEntity))
		return versionSetAnswer(set, err)
	})
}

// versionSetAnswer is a versioning mutation's answer: the VersionSet of
// URN set, null for "", or err as DataHub answers it.
func versionSetAnswer(set string, err error) (any, error) {
	if err != nil {
		return nil, fromCore(err)
	}
	if set == "" {
		return nil, nil
	}
	return map[string]any{"urn": set, "type": "VERSION_SET"}, nil
}
