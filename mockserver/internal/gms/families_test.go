package gms_test

import (
	"testing"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// TestOwners checks addOwners/removeOwners: the checks of owners and
// resources, replacement of an owner of the same type, removal by type.
func TestOwners(t *testing.T) {
	t.Parallel()
	const tech = "urn:li:ownershipType:__system__technical_owner"
	ctx := t.Context()
	c := mutCore(t, ds, "ownership", `{"owners":[{"owner":"`+userA+`","type":"TECHNICAL_OWNER","typeUrn":"`+tech+`"},{"owner":"urn:li:corpuser:bob","type":"DATAOWNER"}]}`)
	for _, tt := range []struct {
		name string
		o    gms.Owner
		r    gms.ResourceRef
		msg  string
	}{
		{"group expected", gms.Owner{URN: userA, EntityType: "CORP_GROUP", Type: "NONE"}, gms.ResourceRef{URN: ds},
			"Failed to change ownership for resource(s). Expected a corp group urn, found " + userA},
		{"user expected", gms.Owner{URN: groupA, EntityType: "CORP_USER", Type: "NONE"}, gms.ResourceRef{URN: ds},
			"Failed to change ownership for resource(s). Expected a corp user urn, found " + groupA + "."},
		{"owner missing", gms.Owner{URN: "urn:li:corpuser:ghost", Type: "NONE"}, gms.ResourceRef{URN: ds},
			"Failed to change ownership for resource(s). Owner with urn urn:li:corpuser:ghost does not exist."},
		{"type missing", gms.Owner{URN: userA, TypeURN: "urn:li:ownershipType:custom"}, gms.ResourceRef{URN: ds},
			"Failed to change ownership for resource(s). Custom Ownership type with urn urn:li:ownershipType:custom does not exist."},
		{"no type", gms.Owner{URN: userA}, gms.ResourceRef{URN: ds},
			"Failed to change ownership for resource(s). Expected either type or ownershipTypeUrn to be specified."},
		{"sub-resource", gms.Owner{URN: userA, Type: "NONE"}, field(ds, "id"),
			"Malformed input provided: owners cannot be applied to subresources."},
		{"resource missing", gms.Owner{URN: userA, Type: "NONE"}, gms.ResourceRef{URN: ghostDS},
			"Failed to change ownership for resource " + ghostDS + ". Resource does not exist."},
	} {
		refused(t, c.AddOwners(ctx, []gms.Owner{tt.o}, []gms.ResourceRef{tt.r}), gms.BadArgument, tt.msg)
	}
	// alice again as technical owner replaces her entry; the group is added
	// with the system type of its deprecated type.
	if err := c.AddOwners(ctx, []gms.Owner{{URN: userA, EntityType: "CORP_USER", TypeURN: tech}, {URN: groupA, Type: "BUSINESS_OWNER"}},
		[]gms.ResourceRef{{URN: ds}}); err != nil {
		t.Fatal(err)
	}
	sameJSON(t, latest(t, c, ds, "ownership"), `{"owners":[
		{"owner":"urn:li:corpuser:bob","type":"DATAOWNER"},
		{"owner":"`+userA+`","type":"NONE","typeUrn":"`+tech+`","source":{"type":"MANUAL"}},
		{"owner":"`+groupA+`","type":"BUSINESS_OWNER","typeUrn":"urn:li:ownershipType:__system__business_owner","source":{"type":"MANUAL"}}],
		"lastModified":`+mutStamp+`}`)
	// bob's deprecated type maps to __system__dataowner: a removal of
	// technical owners keeps him; a removal of any type takes the group.
	if err := c.RemoveOwners(ctx, []string{"urn:li:corpuser:bob", userA}, tech, []gms.ResourceRef{{URN: ds}}); err != nil {
		t.Fatal(err)
	}
	if err := c.RemoveOwners(ctx, []string{groupA}, "", []gms.ResourceRef{{URN: ds}}); err != nil {
		t.Fatal(err)
	}
	sameJSON(t, latest(t, c, ds, "ownership"), `{"owners":[{"owner":"urn:li:corpuser:bob","type":"DATAOWNER"}],"lastModified":`+mutStamp+`}`)
	refused(t, c.RemoveOwners(ctx, []string{userA}, "", []gms.ResourceRef{{URN: ghostDS}}), gms.BadArgument,
		"Failed to change ownership for resource "+ghostDS+". Resource does not exist.")
}

// TestLinks checks addLink, updateLink, upsertLink and removeLink.
func TestLinks(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	c := mutCore(t)
	add := func(u, l string) error {
		return c.ChangeLink(ctx, gms.LinkChange{Op: gms.AddLink, ResourceURN: ds, URL: u, Label: ptr(l)})
	}
	if err := add("https://a", "A"); err != nil {
		t.Fatal(err)
	}
	refused(t, add("https://a", "A"), gms.BadArgument, "The link 'https://a' with label 'A' already exists")
	if err := add("https://a", "A2"); err != nil {
		t.Fatal(err)
	}
	refused(t, add("javascript:alert(1)", "x"), gms.BadArgument,
		"Failed to change institutional memory for resource "+ds+". URL scheme 'javascript' is not allowed.")
	refused(t, add("/relative", "x"), gms.BadArgument,
		"Failed to change institutional memory for resource "+ds+". URL scheme 'null' is not allowed.")
	refused(t, c.ChangeLink(ctx, gms.LinkChange{Op: gms.AddLink, ResourceURN: ghostDS, URL: "https://a", Label: ptr("A")}), gms.BadArgument,
		"Failed to change institutional memory for resource "+ghostDS+". Resource does not exist.")
	refused(t, c.ChangeLink(ctx, gms.LinkChange{Op: gms.UpdateLink, ResourceURN: ds, CurrentURL: "https://none", CurrentLabel: "N", URL: "https://b", Label: ptr("B")}),
		gms.BadArgument, "Failed to update the link 'https://none' with label 'N'. The link does not exist")
	refused(t, c.ChangeLink(ctx, gms.LinkChange{Op: gms.UpdateLink, ResourceURN: ds, CurrentURL: "https://a", CurrentLabel: "A", URL: "https://a", Label: ptr("A2")}),
		gms.BadArgument, "The link 'https://a' with label 'A2' already exists")
	if err := c.ChangeLink(ctx, gms.LinkChange{Op: gms.UpdateLink, ResourceURN: ds, CurrentURL: "https://a", CurrentLabel: "A", URL: "https://b", Label: ptr("B"),
		ShowInAssetPreview: new(true)}); err != nil {
		t.Fatal(err)
	}
	if err := c.ChangeLink(ctx, gms.LinkChange{Op: gms.UpsertLink, ResourceURN: ds, URL: "https://c", Label: ptr("C")}); err != nil {
		t.Fatal(err)
	}
	sameJSON(t, latest(t, c, ds, "institutionalMemory"), `{"elements":[
		{"url":"https://b","description":"B","createStamp":`+mutStamp+`,"updateStamp":`+mutStamp+`,"settings":{"showInAssetPreview":true}},
		{"url":"https://a","description":"A2","createStamp":`+mutStamp+`},
		{"url":"https://c","description":"C","createStamp":`+mutStamp+`}]}`)
	if err := c.ChangeLink(ctx, gms.LinkChange{Op: gms.RemoveLink, ResourceURN: ds, URL: "https://b"}); err != nil {
		t.Fatal(err)
	}
	if err := c.ChangeLink(ctx, gms.LinkChange{Op: gms.RemoveLink, ResourceURN: ds, URL: "https://a", Label: ptr("other")}); err != nil {
		t.Fatal(err)
	}
	sameJSON(t, latest(t, c, ds, "institutionalMemory"), `{"elements":[
		{"url":"https://a","description":"A2","createStamp":`+mutStamp+`},
		{"url":"https://c","description":"C","createStamp":`+mutStamp+`}]}`)
}

// TestDomainMutations checks createDomain, setDomain, unsetDomain,
// batchSetDomain, moveDomain and deleteDomain.
func TestDomainMutations(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	const chart = "urn:li:chart:(looker,c1)"
	c := mutCore(t, chart, "status", `{"removed":false}`)
	eng, err := c.CreateDomain(ctx, gms.DomainInput{ID: "eng", Name: "Engineering", Description: ptr("d"),
		Owners: []gms.Owner{{URN: userA, Type: "TECHNICAL_OWNER"}}})
	if err != nil || eng != "urn:li:domain:eng" {
		t.Fatal(eng, err)
	}
	sameJSON(t, latest(t, c, eng, "domainProperties"), `{"name":"Engineering","description":"d","created":`+mutStamp+`}`)
	if latest(t, c, eng, "ownership") == "" {
		t.Error("createDomain's owners not written")
	}
	_, err = c.CreateDomain(ctx, gms.DomainInput{ID: "eng", Name: "Other"})
	refused(t, err, gms.BadArgument, "This Domain already exists!")
	_, err = c.CreateDomain(ctx, gms.DomainInput{Name: "Engineering"})
	refused(t, err, gms.Conflict, `"Engineering" already exists in this domain. Please pick a unique name.`)
	_, err = c.CreateDomain(ctx, gms.DomainInput{Name: "x", ParentDomain: ptr("urn:li:domain:ghost")})
	refused(t, err, gms.BadArgument, "Parent Domain does not exist!")
	sub, err := c.CreateDomain(ctx, gms.DomainInput{Name: "Engineering", ParentDomain: &eng})
	if err != nil {
		t.Fatal(err)
	}
	if len(sub) != len("urn:li:domain:")+36 {
		t.Errorf("generated domain urn %s is not a UUID's", sub)
	}
	sameJSON(t, latest(t, c, sub, "domainProperties"), `{"name":"Engineering","parentDomain":"`+eng+`","created":`+mutStamp+`}`)

	refused(t, c.SetDomain(ctx, ds, "urn:li:domain:ghost"), gms.BadArgument,
		"Failed to add Entity "+ds+" to Domain urn:li:domain:ghost. Domain does not exist.")
	refused(t, c.SetDomain(ctx, ghostDS, eng), gms.BadArgument,
		"Failed to add Entity "+ghostDS+" to Domain "+eng+". Entity does not exist.")
	if err := c.SetDomain(ctx, ds, eng); err != nil {
		t.Fatal(err)
	}
	if err := c.SetDomain(ctx, ds, sub); err != nil {
		t.Fatal(err)
	}
	sameJSON(t, latest(t, c, ds, "domains"), `{"domains":["`+sub+`"]}`)
	refused(t, c.UnsetDomain(ctx, ghostDS), gms.BadArgument, "Format specifier '%s'")
	if err := c.UnsetDomain(ctx, ds); err != nil {
		t.Fatal(err)
	}
	sameJSON(t, latest(t, c, ds, "domains"), `{"domains":[]}`)
	refused(t, c.BatchSetDomain(ctx, ptr("urn:li:domain:ghost"), []gms.ResourceRef{{URN: ds}}), gms.BadArgument,
		"Failed to validate Domain with urn urn:li:domain:ghost. Urn does not exist.")
	if err := c.BatchSetDomain(ctx, &eng, []gms.ResourceRef{{URN: ds}, {URN: chart}}); err != nil {
		t.Fatal(err)
	}
	sameJSON(t, latest(t, c, chart, "domains"), `{"domains":["`+eng+`"]}`)
	if err := c.BatchSetDomain(ctx, nil, []gms.ResourceRef{{URN: chart}}); err != nil {
		t.Fatal(err)
	}
	sameJSON(t, latest(t, c, chart, "domains"), `{"domains":[]}`)

	refused(t, c.MoveDomain(ctx, eng, &sub), gms.BadArgument, "Cannot move a domain under one of its own descendants.")
	refused(t, c.MoveDomain(ctx, eng, &eng), gms.BadArgument, "Cannot move a domain under one of its own descendants.")
	refused(t, c.MoveDomain(ctx, ds, nil), gms.BadArgument, "Resource is not a domain.")
	refused(t, c.MoveDomain(ctx, sub, ptr(tagA)), gms.BadArgument, "Parent entity is not a domain.")
	refused(t, c.MoveDomain(ctx, sub, nil), gms.Conflict, `"Engineering" already exists in the destination domain. Please pick a unique name.`)
	refused(t, c.DeleteDomain(ctx, eng), gms.Internal,
		"Failed to perform delete against domain with urn "+eng+". Root cause: Cannot delete domain "+eng+" which has child domains")
	other, err := c.CreateDomain(ctx, gms.DomainInput{ID: "other", Name: "Other"})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.MoveDomain(ctx, sub, &other); err != nil {
		t.Fatal(err)
	}
	if err := c.DeleteDomain(ctx, eng); err != nil {
		t.Fatal(err)
	}
	if ok, _ := c.Exists(ctx, eng); ok {
		t.Error("deleted domain still exists")
	}
}

// TestDeprecationAndSoftDelete checks updateDeprecation,
// batchUpdateDeprecation (a schema field's goes to its schemaField entity)
// and batchUpdateSoftDeleted.
func TestDeprecationAndSoftDelete(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	c := mutCore(t, ds, "deprecation", `{"deprecated":true,"note":"old","actor":"urn:li:corpuser:x","decommissionTime":5}`)
	if err := c.UpdateDeprecation(ctx, ds, gms.Deprecation{Deprecated: true, Replacement: ptr(ghostDS)}); err != nil {
		t.Fatal(err)
	}
	sameJSON(t, latest(t, c, ds, "deprecation"), `{"deprecated":true,"note":"","replacement":"`+ghostDS+`","actor":"urn:li:corpuser:datahub"}`)
	refused(t, c.UpdateDeprecation(ctx, ghostDS, gms.Deprecation{}), gms.BadArgument,
		"Failed to update deprecation for Entity "+ghostDS+". Entity does not exist.")
	if err := c.BatchUpdateDeprecation(ctx, gms.Deprecation{Deprecated: true, Note: ptr("n"), DecommissionTime: new(int64(7))},
		[]gms.ResourceRef{{URN: tagA}, field(ds, "id")}); err != nil {
		t.Fatal(err)
	}
	sameJSON(t, latest(t, c, tagA, "deprecation"), `{"deprecated":true,"note":"n","decommissionTime":7,"actor":"urn:li:corpuser:datahub"}`)
	sameJSON(t, latest(t, c, "urn:li:schemaField:("+ds+",id)", "deprecation"), `{"deprecated":true,"note":"n","decommissionTime":7,"actor":"urn:li:corpuser:datahub"}`)
	refused(t, c.BatchUpdateDeprecation(ctx, gms.Deprecation{}, []gms.ResourceRef{field(ds, "nope")}), gms.BadArgument, "")

	refused(t, c.BatchUpdateSoftDeleted(ctx, []string{tagA, ghostDS}, true), gms.BadArgument,
		"Failed to soft delete entity with urn "+ghostDS+". Entity does not exist.")
	if got := latest(t, c, tagA, "status"); got != "" {
		t.Errorf("refused batch wrote status %s", got)
	}
	if err := c.BatchUpdateSoftDeleted(ctx, []string{tagA, ds}, true); err != nil {
		t.Fatal(err)
	}
	sameJSON(t, latest(t, c, ds, "status"), `{"removed":true}`)
	if err := c.BatchUpdateSoftDeleted(ctx, []string{tagA}, false); err != nil {
		t.Fatal(err)
	}
	sameJSON(t, latest(t, c, tagA, "status"), `{"removed":false}`)
}
