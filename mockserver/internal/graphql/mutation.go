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

// UpdateDescription resolves Mutation.updateDescription through the core
// ([gms.Core.UpdateDescription] holds DataHub's rules).
func (r *resolver) UpdateDescription(ctx context.Context, a struct{ Input descriptionUpdateInput }) (*bool, error) {
	in := a.Input
	err := r.core.UpdateDescription(ctx, gms.DescriptionUpdate{Description: in.Description, ResourceURN: in.ResourceUrn,
		SubResourceType: in.SubResourceType, SubResource: in.SubResource})
	if err != nil {
		return nil, fromCore(err)
	}
	ok := true
	return &ok, nil
}

// exists is Core.Exists with its error as GraphQL answers it.
func (r *resolver) exists(ctx context.Context, u string) (bool, *gqlError) {
	ok, err := r.core.Exists(ctx, u)
	if err != nil {
		return false, fromCore(err)
	}
	return ok, nil
}
