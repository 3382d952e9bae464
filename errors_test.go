package datahub_test

import (
	"errors"
	"fmt"
	"testing"

	datahub "github.com/catalogkit/datahub-go"
)

func TestErrorIs(t *testing.T) {
	t.Parallel()
	sentinels := []error{datahub.ErrNotFound, datahub.ErrUnauthorized, datahub.ErrPreconditionFailed, datahub.ErrPayloadTooLarge, datahub.ErrValidation}
	tests := []struct {
		status  int
		message string
		want    error // nil: matches no sentinel
	}{
		{404, "", datahub.ErrNotFound},
		{401, "", datahub.ErrUnauthorized},
		{403, "", datahub.ErrUnauthorized},
		{412, "", datahub.ErrPreconditionFailed},
		{413, "", datahub.ErrPayloadTooLarge},
		{400, "", datahub.ErrValidation},
		{422, "", datahub.ErrValidation},
		{500, "", nil},
		{429, "", nil},
		// DataHub's Rest.li answer to a failed If-Version-Match.
		{422, "com.linkedin.metadata.aspect.plugins.validation.AspectValidationException: Expected version 3, actual version 4", datahub.ErrPreconditionFailed},
		{422, "Unknown aspect foo for entity dataset", datahub.ErrValidation},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.status, tt.message), func(t *testing.T) {
			t.Parallel()
			err := fmt.Errorf("emit: %w", &datahub.Error{StatusCode: tt.status, Message: tt.message})
			for _, s := range sentinels {
				if got, want := errors.Is(err, s), s == tt.want; got != want {
					t.Errorf("errors.Is(%d, %v) = %v, want %v", tt.status, s, got, want)
				}
			}
			var de *datahub.Error
			if !errors.As(err, &de) || de.StatusCode != tt.status {
				t.Errorf("errors.As did not recover the *Error with status %d", tt.status)
			}
		})
	}
}

func TestErrorMessage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err  *datahub.Error
		want string
	}{
		{
			&datahub.Error{StatusCode: 422, Message: "Unknown aspect foo for entity dataset", Method: "POST", URL: "http://gms/aspects?action=ingestProposal"},
			"datahub: POST http://gms/aspects?action=ingestProposal: 422 Unprocessable Entity: Unknown aspect foo for entity dataset",
		},
		{&datahub.Error{StatusCode: 404}, "datahub: 404 Not Found"},
		{&datahub.Error{StatusCode: 503, Message: "Service Unavailable", Method: "GET", URL: "http://gms/config"}, "datahub: GET http://gms/config: 503 Service Unavailable"},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
}

func TestRedactURL(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"http://user:pass@gms:8080/aspects?action=ingestProposal", "http://gms:8080/aspects?action=ingestProposal"},
		{"https://gms/api/gms/config?token=abc&x=1", "https://gms/api/gms/config?token=REDACTED&x=1"},
		{"http://gms/aspects/urn%3Ali%3Acorpuser%3Ax?aspect=status&version=0", "http://gms/aspects/urn%3Ali%3Acorpuser%3Ax?aspect=status&version=0"},
		{"::not a url?token=abc", "::not a url"},
		{"http://admin:s3cret@gms:bad port/x?token=abc", "http://gms:bad port/x"},
		{"http://admin:s3cret@gms:8080/%zz", "http://gms:8080/%zz"},
		{"admin:s3cret@gms:bad port", "gms:bad port"},
	}
	for _, tt := range tests {
		if got := datahub.RedactURL(tt.in); got != tt.want {
			t.Errorf("RedactURL(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
