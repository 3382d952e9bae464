package client

import (
	"testing"
	"time"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

// TestHelpersKeepUnknownMembersOfListElements runs AddLink and AddOwner
// against a mock that acts as a newer DataHub: the stored list elements
// carry members this SDK does not type, and they must survive the write.
func TestHelpersKeepUnknownMembersOfListElements(t *testing.T) {
	t.Parallel()
	const dataset = "urn:li:dataset:(urn:li:dataPlatform:hive,newer.members,PROD)"
	for _, tc := range []struct {
		name   string
		aspect string
		stored string
		write  func(c *Client, u urn.URN) error
		want   string
	}{
		{
			name:   "AddLink",
			aspect: "institutionalMemory",
			stored: `{"elements":[{"url":"https://a","description":"a","createStamp":{"time":1,"actor":"urn:li:corpuser:x","future":true},"settings2":{"pin":true}}],"top":1}`,
			write: func(c *Client, u urn.URN) error {
				return c.AddLink(t.Context(), u, "https://b", "b")
			},
			want: `{"elements":[{"url":"https://a","description":"a","createStamp":{"time":1,"actor":"urn:li:corpuser:x","future":true},"settings2":{"pin":true}},` +
				`{"url":"https://b","description":"b","createStamp":{"time":1000,"actor":"urn:li:corpuser:datahub"}}],"top":1}`,
		},
		{
			name:   "AddOwner",
			aspect: "ownership",
			stored: `{"owners":[{"owner":"urn:li:corpuser:old","type":"TECHNICAL_OWNER","since":7}],"ownerTypes":{},"lastModified":{"time":0,"actor":"urn:li:corpuser:unknown"}}`,
			write: func(c *Client, u urn.URN) error {
				return c.AddOwner(t.Context(), u, urn.MustParse("urn:li:corpuser:new"), aspects.OwnershipTypeTechnicalOwner)
			},
			want: `{"owners":[{"owner":"urn:li:corpuser:old","type":"TECHNICAL_OWNER","since":7},{"owner":"urn:li:corpuser:new","type":"TECHNICAL_OWNER"}],` +
				`"ownerTypes":{"urn:li:ownershipType:__system__technical_owner":["urn:li:corpuser:old","urn:li:corpuser:new"]},` + // GMS's OwnershipOwnerTypes hook
				`"lastModified":{"time":1000,"actor":"urn:li:corpuser:datahub"}}`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := mockserver.Start(t, mockserver.WithAcceptUnknownMembers(tc.aspect))
			c := newTestClient(t, s)
			fixedClock(c, time.UnixMilli(1000))
			u := urn.MustParse(dataset)
			if err := s.PutAspectJSON(dataset, tc.aspect, []byte(tc.stored)); err != nil {
				t.Fatal(err)
			}
			if err := tc.write(c, u); err != nil {
				t.Fatal(err)
			}
			raw, err := s.GetAspectJSON(dataset, tc.aspect, 0)
			if err != nil {
				t.Fatal(err)
			}
			if !equalJSON(raw, []byte(tc.want)) {
				t.Errorf("stored %s\nwant   %s", raw, tc.want)
			}
		})
	}
}
