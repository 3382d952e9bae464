package graphql

import (
	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// gqlError is a resolver error in DataHub's shape
// (DataHubGraphQLError: extensions code, type and classification).
type gqlError struct {
	msg  string
	code int
	typ  string
}

func (e *gqlError) Error() string { return e.msg }

// Extensions are the error's extensions as DataHub sends them.
func (e *gqlError) Extensions() map[string]any {
	return map[string]any{"code": e.code, "type": e.typ, "classification": "DataFetchingException"}
}

// DataHub's error codes (DataHubGraphQLErrorCode).
func badRequest(msg string) *gqlError  { return &gqlError{msg, 400, "BAD_REQUEST"} }
func serverError(msg string) *gqlError { return &gqlError{msg, 500, "SERVER_ERROR"} }

// fromCore maps a core error to DataHub's GraphQL error: an argument or
// validation refusal is DataHub's IllegalArgumentException (400), a missing
// thing 404, anything else 500.
func fromCore(err error) *gqlError {
	e := gms.AsError(err)
	msg := e.Message
	if msg == "" {
		msg = "An unknown error occurred."
	}
	switch e.Kind {
	case gms.Invalid, gms.BadArgument, gms.UnknownEntity, gms.UnknownAspect, gms.PreconditionFailed, gms.TooLarge:
		return badRequest(msg)
	case gms.NotFound:
		return &gqlError{msg, 404, "NOT_FOUND"}
	case gms.Conflict:
		return &gqlError{msg, 409, "CONFLICT"}
	case gms.Unauthorized:
		return &gqlError{msg, 403, "UNAUTHORIZED"}
	}
	return serverError(msg)
}

// DataHub's texts for updateDescription (UpdateDescriptionResolver,
// DescriptionUtils), and the mock's own where it refuses what DataHub does.
const (
	msgUnsupportedResource = "Failed to update description. Unsupported resource type %s provided."
	msgDoesNotExist        = "Failed to update %s. %s does not exist."
	msgNoSchema            = "Failed to update %s & field %s. %s has no schema."
	msgNoSuchField         = "Failed to update %s & field %s. Field %s does not exist in the datasets schema."
	msgWholeDataset        = "Failed to update description. Setting the description of a whole dataset through GraphQL is not supported (datahub-mock follows the interface spec): write editableDatasetProperties by proposal, or pass subResourceType DATASET_FIELD and subResource"
	msgWrongEntityType     = "Failed to load %s: %s is not a %s urn (datahub-mock)"
	msgMapAspect           = "Failed to map aspect %s of %s: %s (datahub-mock)"
)
