package graphql

import (
	"context"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// descriptionUpdateInput is DescriptionUpdateInput.
type descriptionUpdateInput struct {
	Description     string
	ResourceUrn     string
	SubResourceType *string
	SubResource     *string
}

func init() {
	mutation("updateDescription", updateDescription)
	mutation("updateLineage", updateLineage)
}

// updateDescription resolves Mutation.updateDescription through the core
// ([gms.Core.UpdateDescription] holds DataHub's rules).
func updateDescription(c *Ctx, a Args) (any, error) {
	var args struct{ Input descriptionUpdateInput }
	if err := a.Decode(&args); err != nil {
		return nil, badRequest(err.Error())
	}
	in := args.Input
	err := c.Core().UpdateDescription(c, gms.DescriptionUpdate{Description: in.Description, ResourceURN: in.ResourceUrn,
		SubResourceType: in.SubResourceType, SubResource: in.SubResource})
	if err != nil {
		return nil, fromCore(err)
	}
	return true, nil
}

// exists is Core.Exists with its error as GraphQL answers it.
func (r *resolver) exists(ctx context.Context, u string) (bool, *gqlError) {
	ok, err := r.core.Exists(ctx, u)
	if err != nil {
		return false, fromCore(err)
	}
	return ok, nil
}
