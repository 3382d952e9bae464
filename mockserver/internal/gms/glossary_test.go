package gms_test

import (
	"testing"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

const creatorOwnership = `{"owners":[{"owner":"urn:li:corpuser:datahub","type":"TECHNICAL_OWNER","typeUrn":"urn:li:ownershipType:__system__technical_owner","source":{"type":"MANUAL"}}],"lastModified":` + mutStamp + `}`

// TestGlossaryMutations checks createGlossaryNode/Term, related terms,
// updateParentNode, updateName and deleteGlossaryEntity.
func TestGlossaryMutations(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	c := mutCore(t)
	root, err := c.CreateGlossaryNode(ctx, gms.GlossaryInput{ID: "root", Name: "Root"})
	if err != nil || root != "urn:li:glossaryNode:root" {
		t.Fatal(root, err)
	}
	child, err := c.CreateGlossaryNode(ctx, gms.GlossaryInput{ID: "child", Name: "Child", ParentNode: &root})
	if err != nil {
		t.Fatal(err)
	}
	term, err := c.CreateGlossaryTerm(ctx, gms.GlossaryInput{ID: "pii", Name: "PII", Description: ptr("personal"), ParentNode: &root})
	if err != nil {
		t.Fatal(err)
	}
	sameJSON(t, latest(t, c, term, "glossaryTermInfo"), `{"name":"PII","definition":"personal","termSource":"INTERNAL","parentNode":"`+root+`"}`)
	sameJSON(t, latest(t, c, term, "ownership"), creatorOwnership)
	sameJSON(t, latest(t, c, child, "glossaryNodeInfo"), `{"name":"Child","definition":"","parentNode":"`+root+`"}`)
	_, err = c.CreateGlossaryTerm(ctx, gms.GlossaryInput{Name: "PII", ParentNode: &root})
	refused(t, err, gms.BadArgument, "Glossary Term with this name already exists at this level of the Business Glossary")
	_, err = c.CreateGlossaryNode(ctx, gms.GlossaryInput{ID: "root", Name: "Again"})
	refused(t, err, gms.BadArgument, "This Glossary Node already exists!")
	if _, err := c.CreateGlossaryTerm(ctx, gms.GlossaryInput{Name: "PII"}); err != nil { // another level
		t.Fatal(err)
	}

	// related terms
	refused(t, c.ChangeRelatedTerms(ctx, gms.RelatedTermsChange{URN: term, Terms: []string{term}}), gms.BadArgument,
		"Failed to update "+term+". Tried to create related term with itself.")
	refused(t, c.ChangeRelatedTerms(ctx, gms.RelatedTermsChange{URN: term, Terms: []string{"urn:li:glossaryTerm:ghost"}}), gms.BadArgument,
		"Failed to update "+term+". urn:li:glossaryTerm:ghost does not exist.")
	refused(t, c.ChangeRelatedTerms(ctx, gms.RelatedTermsChange{URN: root, Terms: []string{termA}}), gms.BadArgument,
		"Failed to update "+root+". "+root+" either does not exist or is not a glossaryTerm.")
	refused(t, c.ChangeRelatedTerms(ctx, gms.RelatedTermsChange{URN: term, Terms: []string{termA}, Remove: true}), gms.Internal, "")
	if err := c.ChangeRelatedTerms(ctx, gms.RelatedTermsChange{URN: term, Terms: []string{termA, termA}, IsA: true}); err != nil {
		t.Fatal(err)
	}
	sameJSON(t, latest(t, c, term, "glossaryRelatedTerms"), `{"isRelatedTerms":["`+termA+`"]}`)
	refused(t, c.ChangeRelatedTerms(ctx, gms.RelatedTermsChange{URN: term, Terms: []string{termA}, Remove: true}), gms.Internal, "")
	if err := c.ChangeRelatedTerms(ctx, gms.RelatedTermsChange{URN: term, Terms: []string{termA}, IsA: true, Remove: true}); err != nil {
		t.Fatal(err)
	}
	sameJSON(t, latest(t, c, term, "glossaryRelatedTerms"), `{"isRelatedTerms":[]}`)

	// parents
	refused(t, c.UpdateParentNode(ctx, root, &child), gms.BadArgument, "Cannot move a glossary node under one of its own descendants.")
	refused(t, c.UpdateParentNode(ctx, term, ptr(termA)), gms.BadArgument,
		"Failed to update "+term+". "+termA+" either does not exist or is not a glossaryNode.")
	if err := c.UpdateParentNode(ctx, term, &child); err != nil {
		t.Fatal(err)
	}
	if err := c.UpdateParentNode(ctx, child, nil); err != nil {
		t.Fatal(err)
	}
	sameJSON(t, latest(t, c, child, "glossaryNodeInfo"), `{"name":"Child","definition":""}`)

	// names
	if err := c.UpdateName(ctx, term, "Personal"); err != nil {
		t.Fatal(err)
	}
	sameJSON(t, latest(t, c, term, "glossaryTermInfo"), `{"name":"Personal","definition":"personal","termSource":"INTERNAL","parentNode":"`+child+`"}`)
	refused(t, c.UpdateName(ctx, "urn:li:glossaryTerm:ghost", "x"), gms.BadArgument,
		"Failed to update urn:li:glossaryTerm:ghost. urn:li:glossaryTerm:ghost does not exist.")
	refused(t, c.UpdateName(ctx, tagA, "x"), gms.Unsupported, "Failed to update name. Unsupported resource type "+tagA+" provided.")
	if err := c.UpdateName(ctx, groupA, "Engineers"); err != nil {
		t.Fatal(err)
	}
	sameJSON(t, latest(t, c, groupA, "corpGroupInfo"), `{"displayName":"Engineers","admins":[],"members":[],"groups":[]}`)
	if err := c.Put(ctx, ds, "editableDatasetProperties", []byte(`{"description":"kept"}`)); err != nil {
		t.Fatal(err)
	}
	if err := c.UpdateName(ctx, ds, "Orders"); err != nil {
		t.Fatal(err)
	}
	sameJSON(t, latest(t, c, ds, "editableDatasetProperties"), `{"description":"kept","name":"Orders","lastModified":`+mutStamp+`}`)
	d1, _ := c.CreateDomain(ctx, gms.DomainInput{ID: "d1", Name: "One"})
	if _, err := c.CreateDomain(ctx, gms.DomainInput{ID: "d2", Name: "Two"}); err != nil {
		t.Fatal(err)
	}
	refused(t, c.UpdateName(ctx, d1, "Two"), gms.Conflict, `"Two" already exists in this domain. Please pick a unique name.`)

	// delete
	if err := c.DeleteGlossaryEntity(ctx, term); err != nil {
		t.Fatal(err)
	}
	refused(t, c.DeleteGlossaryEntity(ctx, term), gms.Internal, "This urn does not exist: "+term)
}

// TestTagMutations checks createTag, updateTag, setTagColor and deleteTag.
func TestTagMutations(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	c := mutCore(t)
	u, err := c.CreateTag(ctx, gms.TagInput{ID: "pii", Name: "PII", Description: ptr("personal")})
	if err != nil || u != "urn:li:tag:pii" {
		t.Fatal(u, err)
	}
	sameJSON(t, latest(t, c, u, "tagProperties"), `{"name":"PII","description":"personal"}`)
	sameJSON(t, latest(t, c, u, "ownership"), creatorOwnership)
	_, err = c.CreateTag(ctx, gms.TagInput{ID: "pii", Name: "x"})
	refused(t, err, gms.BadArgument, "This Tag already exists!")
	if err := c.SetTagColor(ctx, u, "#ff0000"); err != nil {
		t.Fatal(err)
	}
	sameJSON(t, latest(t, c, u, "tagProperties"), `{"name":"PII","description":"personal","colorHex":"#ff0000"}`)
	refused(t, c.SetTagColor(ctx, "urn:li:tag:ghost", "#000"), gms.BadArgument, "Failed to set Tag urn:li:tag:ghost color. Tag does not exist.")
	if err := c.UpdateTag(ctx, u, "Personal", nil); err != nil {
		t.Fatal(err)
	}
	sameJSON(t, latest(t, c, u, "tagProperties"), `{"name":"Personal"}`)
	sameJSON(t, latest(t, c, u, "ownership"), `{"owners":[{"owner":"urn:li:corpuser:datahub","type":"NONE","typeUrn":"urn:li:ownershipType:__system__none","source":{"type":"SERVICE"}}],"lastModified":`+mutStamp+`}`)
	if err := c.DeleteTag(ctx, u); err != nil {
		t.Fatal(err)
	}
	if ok, _ := c.Exists(ctx, u); ok {
		t.Error("deleted tag exists")
	}
}
