package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	graphql "github.com/hasura/go-graphql-client"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/internal/config"
	"github.com/catalogkit/datahub-go/internal/transport"
)

// WithGraphQLURL sets the GraphQL endpoint, such as
// "https://datahub.example.com/api/v2/graphql"; "" (the default) derives it
// from the server URL: a trailing /api/gms is removed and /api/graphql
// added (http://localhost:8080 → http://localhost:8080/api/graphql,
// https://host/api/gms → https://host/api/graphql).
func WithGraphQLURL(endpoint string) Option {
	return config.ClientOnly(func(s *config.Settings) {
		s.Client.GraphQLURL = endpoint
	})
}

// gqlClient sends GraphQL documents with hasura/go-graphql-client over the
// transport's HTTP client: the shared retry policy (hasura's own retries,
// which ignore the context, stay off), headers and token.
type gqlClient struct {
	url string
	hc  *graphql.Client
}

func newGQLClient(tc *transport.Client, endpoint string) (*gqlClient, error) {
	if endpoint == "" {
		endpoint = strings.TrimSuffix(tc.BaseURL(), "/api/gms") + "/api/graphql"
	} else {
		u, err := url.Parse(endpoint)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("client: GraphQL URL %q is not an absolute http or https URL: %w", datahub.RedactURL(endpoint), datahub.ErrValidation)
		}
	}
	return &gqlClient{url: endpoint, hc: graphql.NewClient(endpoint, tc.StandardClient())}, nil
}

// GraphQLURL returns the GraphQL endpoint the client sends to.
func (c *Client) GraphQLURL() string { return c.gql.url }

// GraphQL sends document (a query or mutation, with variables, nil for
// none) to the GraphQL endpoint and returns the answer's data as JSON. An
// answer with errors fails with a *GraphQLError (which also matches
// *datahub.Error and its sentinels); an HTTP failure with a *datahub.Error.
// When the document has several operations, operationName picks one ("":
// the only one).
func (c *Client) GraphQL(ctx context.Context, document string, variables map[string]any, operationName string) (json.RawMessage, error) {
	var opts []graphql.Option
	if operationName != "" {
		opts = append(opts, graphql.OperationName(operationName))
	}
	data, err := c.gql.hc.ExecRaw(ctx, document, variables, opts...)
	if err != nil {
		return json.RawMessage(data), c.gql.mapError(ctx, err)
	}
	return json.RawMessage(data), nil
}

// GraphQLError is a GraphQL answer with errors: HTTP 200 with an "errors"
// list, as DataHub answers a refused mutation, a failed resolver or an
// invalid document. It describes the first error; Others holds the rest.
//
// It unwraps to a *datahub.Error whose StatusCode is DataHub's
// extensions.code (400 BAD_REQUEST, 403 UNAUTHORIZED, 404 NOT_FOUND, 409
// CONFLICT, 500 SERVER_ERROR; 400 for a document that does not validate),
// so errors.Is(err, datahub.ErrValidation) and friends work; DataHub's
// "<urn> does not exist." refusals also match datahub.ErrNotFound.
type GraphQLError struct {
	// Message is the server's message.
	Message string
	// Code and Type are extensions.code and extensions.type (0 and "" for
	// a validation error, which has neither).
	Code int
	Type string
	// Classification is extensions.classification (DataFetchingException,
	// ValidationError).
	Classification string
	// Path is the response path of the field that failed, such as
	// ["updateDescription"].
	Path []any
	// Locations are the places in the document the error is about.
	Locations []GraphQLLocation
	// Others are the answer's further errors.
	Others []*GraphQLError
	// URL is the endpoint, redacted.
	URL string
}

// GraphQLLocation is a line and column of a GraphQL document (from 1).
type GraphQLLocation struct{ Line, Column int }

// Error formats the first error as "datahub: graphql: path: message".
func (e *GraphQLError) Error() string {
	var b strings.Builder
	b.WriteString("datahub: graphql")
	if len(e.Path) > 0 {
		parts := make([]string, len(e.Path))
		for i, p := range e.Path {
			parts[i] = fmt.Sprint(p)
		}
		b.WriteString(" " + strings.Join(parts, "."))
	}
	if e.Code != 0 {
		fmt.Fprintf(&b, ": %d %s", e.Code, e.Type)
	}
	b.WriteString(": " + e.Message)
	if n := len(e.Others); n > 0 {
		fmt.Fprintf(&b, " (and %d more errors)", n)
	}
	return b.String()
}

// Unwrap returns the *datahub.Error of the error's kind, which errors.Is
// matches with one sentinel. Its StatusCode is the error's code (a GraphQL
// error comes with HTTP 200; its code is an extension), 400 when it has
// none or one outside 400 to 599, except for DataHub's "<urn> does not
// exist." refusal: DataHub codes that 400 BAD_REQUEST, and it unwraps to
// 404, so that it matches datahub.ErrNotFound and not ErrValidation.
func (e *GraphQLError) Unwrap() error {
	status := e.Code
	if status < 400 || status > 599 {
		status = http.StatusBadRequest
	}
	if strings.HasSuffix(e.Message, " does not exist.") {
		status = http.StatusNotFound
	}
	return &datahub.Error{StatusCode: status, Message: e.Message, Method: http.MethodPost, URL: e.URL}
}

// mapError turns hasura's errors into the SDK's, in one place: GraphQL
// errors into a *GraphQLError, an HTTP failure (hasura's NetworkError) into
// the transport's *datahub.Error, anything else wrapped with the endpoint.
func (g *gqlClient) mapError(ctx context.Context, err error) error {
	redacted := datahub.RedactURL(g.url)
	var ne graphql.NetworkError
	if errors.As(err, &ne) {
		e := transport.DecodeError(ne.StatusCode(), []byte(ne.Body()))
		e.Method, e.URL = http.MethodPost, redacted
		return e
	}
	var ge graphql.Errors
	if errors.As(err, &ge) && len(ge) > 0 {
		if ctxErr := ctx.Err(); ctxErr != nil && isRequestError(ge) {
			return fmt.Errorf("datahub: POST %s: %w", redacted, ctxErr)
		}
		if isRequestError(ge) {
			return fmt.Errorf("datahub: POST %s: %w", redacted, errors.Unwrap(ge[0]))
		}
		out := gqlErrorOf(ge[0], redacted)
		for _, o := range ge[1:] {
			out.Others = append(out.Others, gqlErrorOf(o, redacted))
		}
		return out
	}
	return fmt.Errorf("datahub: POST %s: %w", redacted, err)
}

// isRequestError reports hasura's wrapping of a transport failure (the
// request could not be sent or its answer read), which is no GraphQL error.
func isRequestError(ge graphql.Errors) bool {
	if len(ge) != 1 || ge[0].Extensions == nil {
		return false
	}
	code, _ := ge[0].Extensions["code"].(string)
	return code == graphql.ErrRequestError || code == graphql.ErrJsonDecode
}

func gqlErrorOf(e graphql.Error, url string) *GraphQLError {
	out := &GraphQLError{Message: e.Message, Path: e.Path, URL: url}
	if f, ok := e.Extensions["code"].(float64); ok {
		out.Code = int(f)
	}
	out.Type, _ = e.Extensions["type"].(string)
	out.Classification, _ = e.Extensions["classification"].(string)
	for _, l := range e.Locations {
		out.Locations = append(out.Locations, GraphQLLocation{Line: l.Line, Column: l.Column})
	}
	return out
}

// SubResourceDatasetField is the SubResourceType of a dataset's column.
const SubResourceDatasetField = "DATASET_FIELD"

// DescriptionUpdate is the input of [Client.UpdateDescription] (GraphQL's
// DescriptionUpdateInput).
type DescriptionUpdate struct {
	// Description is the new text; markdown and several lines are kept as
	// they are.
	Description string `json:"description"`
	// ResourceURN is the dataset (or container).
	ResourceURN string `json:"resourceUrn"`
	// SubResourceType is SubResourceDatasetField for a column, "" for the
	// resource itself.
	SubResourceType string `json:"subResourceType,omitempty"`
	// SubResource is the column's field path, compared exactly with the
	// schema's (a v2 path is not matched by its simple form).
	SubResource string `json:"subResource,omitempty"`
}

const updateDescriptionDocument = `mutation updateDescription($input: DescriptionUpdateInput!) {
  updateDescription(input: $input)
}`

// UpdateDescription runs DataHub's updateDescription mutation as given, the
// UI's way of editing a description (for a column it writes
// editableSchemaMetadata). To set a column's description, use
// [Client.SetFieldDescription], which resolves simple field paths and
// answers typed errors; UpdateDescription is the raw mutation.
// Refusals come back as a *GraphQLError: a missing entity matches
// datahub.ErrNotFound; a column the schema lacks, a dataset without schema
// and, on the mock server, a whole
// dataset or an ML entity match datahub.ErrValidation or the server's
// code. Real DataHub also accepts whole datasets and ML entities here;
// [Client.SetDescription] writes those descriptions by proposal, which works
// on both.
func (c *Client) UpdateDescription(ctx context.Context, in DescriptionUpdate) error {
	data, err := c.GraphQL(ctx, updateDescriptionDocument, map[string]any{"input": in}, "updateDescription")
	if err != nil {
		return err
	}
	var out struct {
		UpdateDescription *bool `json:"updateDescription"`
	}
	if err := json.Unmarshal(data, &out); err != nil {
		return fmt.Errorf("datahub: graphql updateDescription: decode %s: %w", abbreviate(string(data)), err)
	}
	if out.UpdateDescription == nil || !*out.UpdateDescription {
		return fmt.Errorf("datahub: graphql updateDescription of %s: the server answered %s", in.ResourceURN, abbreviate(string(data)))
	}
	return nil
}

// abbreviate shortens s for a message.
func abbreviate(s string) string {
	if len(s) > 200 {
		return s[:200] + "..."
	}
	return s
}
