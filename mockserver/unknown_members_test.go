package mockserver_test

import (
	"errors"
	"fmt"
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

// A mock acting as a newer DataHub for ownership: an owner with a member
// this SDK's schema does not have is stored, not refused.
func ExampleWithAcceptUnknownMembers() {
	const u = "urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)"
	newer := `{"owners":[{"owner":"urn:li:corpuser:a","type":"TECHNICAL_OWNER","since":7}],"ownerTypes":{},"lastModified":{"time":0,"actor":"urn:li:corpuser:unknown"}}`

	s := mockserver.New()
	defer s.Close()
	fmt.Println(errors.Is(s.PutAspectJSON(u, "ownership", []byte(newer)), datahub.ErrValidation))

	s2 := mockserver.New(mockserver.WithAcceptUnknownMembers("ownership"))
	defer s2.Close()
	fmt.Println(s2.PutAspectJSON(u, "ownership", []byte(newer)))
	raw, _ := s2.GetAspectJSON(u, "ownership", 0)
	fmt.Println(string(raw))
	// Output:
	// true
	// <nil>
	// {"owners":[{"owner":"urn:li:corpuser:a","type":"TECHNICAL_OWNER","since":7}],"ownerTypes":{"urn:li:ownershipType:__system__technical_owner":["urn:li:corpuser:a"]},"lastModified":{"time":0,"actor":"urn:li:corpuser:unknown"}}
}
