package mockserver_test

import (
	"errors"
	"testing"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/mockserver"
)

func TestWithAcceptUnknownMembers(t *testing.T) {
	t.Parallel()
	const (
		u     = "urn:li:dataset:(urn:li:dataPlatform:hive,newer,PROD)"
		value = `{"elements":[{"url":"https://a","description":"a","createStamp":{"time":1,"actor":"urn:li:corpuser:x"},"settings2":{"pin":true}}]}`
	)
	for _, tc := range []struct {
		name    string
		opts    []mockserver.Option
		refused bool
	}{
		{"default refuses", nil, true},
		{"other aspect named", []mockserver.Option{mockserver.WithAcceptUnknownMembers("ownership")}, true},
		{"aspect named", []mockserver.Option{mockserver.WithAcceptUnknownMembers("institutionalMemory")}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := mockserver.Start(t, tc.opts...)
			err := s.PutAspectJSON(u, "institutionalMemory", []byte(value))
			if tc.refused {
				if !errors.Is(err, datahub.ErrValidation) {
					t.Fatalf("PutAspectJSON = %v, want a validation error", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, err := s.GetAspectJSON(u, "institutionalMemory", 0)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != value {
				t.Errorf("stored %s\nwant   %s", got, value)
			}
		})
	}
}
