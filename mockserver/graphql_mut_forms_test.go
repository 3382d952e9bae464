package mockserver_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver"
)

// formServer is mutServer with a string structured property io.tier on
// datasets and schema fields, and a form (urn:li:form:review, of type
// formType) with a required dataset prompt "tier" and an optional field
// prompt "cols".
func formServer(t *testing.T, formType string) *mockserver.Server {
	t.Helper()
	s := mutServer(t)
	gqlData(t, s, `mutation { createStructuredProperty(input: {qualifiedName: "io.tier", valueType: "urn:li:dataType:datahub.string",
		entityTypes: ["urn:li:entityType:datahub.dataset", "urn:li:entityType:datahub.schemaField"]}) { urn } }`, nil)
	gqlData(t, s, `mutation($t: FormType) { createForm(input: {id: "review", name: "Review", type: $t, prompts: [
		{id: "tier", title: "Tier?", type: STRUCTURED_PROPERTY, structuredPropertyParams: {urn: "urn:li:structuredProperty:io.tier"}, required: true},
		{id: "cols", title: "Columns?", type: FIELDS_STRUCTURED_PROPERTY, structuredPropertyParams: {urn: "urn:li:structuredProperty:io.tier"}}]}) { urn } }`,
		map[string]any{"t": formType})
	return s
}

// TestGraphQLFormMutations runs the form family: create, update, assign,
// answer, verify, unassign, delete, read back through GraphQL and Rest.li,
// and DataHub's refusals.
func TestGraphQLFormMutations(t *testing.T) {
	t.Parallel()
	t.Run("lifecycle", func(t *testing.T) {
		t.Parallel()
		s := formServer(t, "VERIFICATION")
		form := gqlData(t, s, `query { form(urn: "urn:li:form:review") { urn info { name type prompts { id required } actors { owners } } } }`, nil)
		contains(t, "GraphQL form", asJSON(form), `"name":"Review"`, `"type":"VERIFICATION"`, `"id":"tier","required":true`, `"id":"cols","required":false`, `"owners":true`)
		upd := gqlData(t, s, `mutation { updateForm(input: {urn: "urn:li:form:review", description: "Quarterly", promptsToAdd: [{id: "extra", title: "Extra", type: STRUCTURED_PROPERTY, structuredPropertyParams: {urn: "urn:li:structuredProperty:io.tier"}}],
			promptsToRemove: ["extra"], actors: {usersToAdd: ["urn:li:corpuser:alice"]}}) { info { description prompts { id } actors { users { urn } } } } }`, nil)
		contains(t, "updateForm", asJSON(upd), `"description":"Quarterly"`, `"urn":"urn:li:corpuser:alice"`)
		if strings.Contains(asJSON(upd), "extra") {
			t.Errorf("removed prompt kept: %s", asJSON(upd))
		}
		gqlData(t, s, `mutation($u: String!) { batchAssignForm(input: {formUrn: "urn:li:form:review", entityUrns: [$u]}) }`, map[string]any{"u": gqlDataset})
		contains(t, "REST forms after assign", restAspect(t, s, gqlDataset, "forms"), `"incompleteForms":[{"completedPrompts":[],"incompletePrompts":[{"id":"tier"`, `"urn":"urn:li:form:review"`)

		// The field prompt answered for one field of two: the prompt stays
		// incomplete, the field's value is written on the schema field.
		gqlData(t, s, `mutation($u: String!) { submitFormPrompt(urn: $u, input: {promptId: "cols", formUrn: "urn:li:form:review", type: FIELDS_STRUCTURED_PROPERTY, fieldPath: "id",
			structuredPropertyParams: {structuredPropertyUrn: "urn:li:structuredProperty:io.tier", values: [{stringValue: "key"}]}}) }`, map[string]any{"u": gqlDataset})
		field := "urn:li:schemaField:(" + gqlDataset + ",id)"
		contains(t, "REST field structuredProperties", restAspect(t, s, field, "structuredProperties"), `"values":[{"string":"key"}]`)
		contains(t, "REST forms after a field", restAspect(t, s, gqlDataset, "forms"), `"completedFieldPrompts":[{"fieldPath":"id"`, `"incompleteForms":[{`)

		// The required prompt answered: the form is complete.
		ok := gqlData(t, s, `mutation($u: String!) { submitFormPrompt(urn: $u, input: {promptId: "tier", formUrn: "urn:li:form:review", type: STRUCTURED_PROPERTY,
			structuredPropertyParams: {structuredPropertyUrn: "urn:li:structuredProperty:io.tier", values: [{stringValue: "gold"}]}}) }`, map[string]any{"u": gqlDataset})
		if ok["submitFormPrompt"] != true {
			t.Fatalf("submitFormPrompt = %v", ok)
		}
		contains(t, "REST structuredProperties", restAspect(t, s, gqlDataset, "structuredProperties"), `"propertyUrn":"urn:li:structuredProperty:io.tier","values":[{"string":"gold"}]`)
		forms := restAspect(t, s, gqlDataset, "forms")
		contains(t, "REST forms after the prompt", forms, `"incompleteForms":[]`, `"completedForms":[{"completedPrompts":[{"id":"tier"`)
		gqlData(t, s, `mutation($u: String!) { verifyForm(input: {formUrn: "urn:li:form:review", entityUrn: $u}) }`, map[string]any{"u": gqlDataset})
		contains(t, "REST forms verified", restAspect(t, s, gqlDataset, "forms"), `"verifications":[{"form":"urn:li:form:review"`)
		read := gqlData(t, s, `query($u: String!) { dataset(urn: $u) { forms { completedForms { form { urn } completedPrompts { id } } verifications { form { urn } } } } }`, map[string]any{"u": gqlDataset})
		contains(t, "GraphQL forms", asJSON(read), `"completedPrompts":[{"id":"tier"}]`, `"verifications":[{"form":{"urn":"urn:li:form:review"}}]`)

		gqlData(t, s, `mutation { createDynamicFormAssignment(input: {formUrn: "urn:li:form:review", orFilters: [{and: [{field: "platform", values: ["urn:li:dataPlatform:hive"]}]}]}) }`, nil)
		contains(t, "REST dynamicFormAssignment", restAspect(t, s, "urn:li:form:review", "dynamicFormAssignment"),
			`"field":"platform"`, `"values":["urn:li:dataPlatform:hive"]`, `"condition":"EQUAL"`)

		gqlData(t, s, `mutation($u: String!) { batchRemoveForm(input: {formUrn: "urn:li:form:review", entityUrns: [$u]}) }`, map[string]any{"u": gqlDataset})
		if got := restAspect(t, s, gqlDataset, "forms"); strings.Contains(got, `"urn":"urn:li:form:review"`) {
			t.Errorf("removed form kept: %s", got)
		}
		gqlData(t, s, `mutation { deleteForm(input: {urn: "urn:li:form:review"}) }`, nil)
		if got := restAspect(t, s, "urn:li:form:review", "formInfo"); got != "" {
			t.Errorf("deleted form kept: %s", got)
		}
	})
	t.Run("refusals", func(t *testing.T) {
		t.Parallel()
		s := formServer(t, "COMPLETION")
		for _, c := range []struct {
			name, doc string
			code      float64
			msg       string
		}{
			{"prompt without params", `mutation { createForm(input: {name: "x", prompts: [{title: "t", type: STRUCTURED_PROPERTY}]}) { urn } }`, 400,
				"Provided prompt with type STRUCTURED_PROPERTY or FIELDS_STRUCTURED_PROPERTY and no structured property params"},
			{"update of a missing form", `mutation { updateForm(input: {urn: "urn:li:form:ghost", name: "x"}) { urn } }`, 400,
				"Form with urn urn:li:form:ghost does not exist"},
			{"assign a missing form", `mutation { batchAssignForm(input: {formUrn: "urn:li:form:ghost", entityUrns: ["` + gqlDataset + `"]}) }`, 500,
				"Failed to perform update against input BatchAssignFormInput{formUrn=urn:li:form:ghost, entityUrns=[" + gqlDataset + "]}. Root cause: Entity urn:li:form:ghost does not exist. Skipping batch form assignment"},
			{"assign to a missing entity", `mutation { batchAssignForm(input: {formUrn: "urn:li:form:review", entityUrns: ["urn:li:chart:(looker,ghost)"]}) }`, 500,
				"Root cause: Issue verifying whether entity exists when assigning form to it. Entity urn: urn:li:chart:(looker,ghost)"},
			{"bad urn", `mutation { batchAssignForm(input: {formUrn: "not-a-urn", entityUrns: []}) }`, 400, ""},
			{"answer an unassigned form", `mutation { submitFormPrompt(urn: "` + gqlDataset + `", input: {promptId: "tier", formUrn: "urn:li:form:review", type: STRUCTURED_PROPERTY,
				structuredPropertyParams: {structuredPropertyUrn: "urn:li:structuredProperty:io.tier", values: [{stringValue: "gold"}]}}) }`, 500,
				"Root cause: Entity is missing forms aspect, form is not assigned to entity with urn " + gqlDataset},
			{"answer without params", `mutation { submitFormPrompt(urn: "` + gqlDataset + `", input: {promptId: "tier", formUrn: "urn:li:form:review", type: STRUCTURED_PROPERTY}) }`, 400,
				"Failed to provide structured property params for prompt type STRUCTURED_PROPERTY"},
			{"field answer without a field", `mutation { submitFormPrompt(urn: "` + gqlDataset + `", input: {promptId: "cols", formUrn: "urn:li:form:review", type: FIELDS_STRUCTURED_PROPERTY,
				structuredPropertyParams: {structuredPropertyUrn: "urn:li:structuredProperty:io.tier", values: []}}) }`, 400,
				"Failed to provide fieldPath for prompt type FIELDS_STRUCTURED_PROPERTY"},
			{"verify a completion form", `mutation { verifyForm(input: {formUrn: "urn:li:form:review", entityUrn: "` + gqlDataset + `"}) }`, 500,
				"Root cause: Form urn:li:form:review is not of type VERIFICATION. Cannot verify form."},
			{"dynamic assignment of a missing form", `mutation { createDynamicFormAssignment(input: {formUrn: "urn:li:form:ghost", orFilters: []}) }`, 500,
				"Root cause: Form urn:li:form:ghost does not exist. Skipping dynamic form assignment"},
		} {
			msg, code := gqlError(t, s, c.doc, nil)
			if code != c.code || !strings.Contains(msg, c.msg) {
				t.Errorf("%s: %q %v, want %q %v", c.name, msg, code, c.msg, c.code)
			}
		}
	})
}

// TestGraphQLDocumentMutations runs the document family and reads its
// effect back through GraphQL and Rest.li.
func TestGraphQLDocumentMutations(t *testing.T) {
	t.Parallel()
	s := mutServer(t)
	root := gqlData(t, s, `mutation { createDocument(input: {id: "root", title: "Root", contents: {text: "top"}}) }`, nil)["createDocument"]
	doc := gqlData(t, s, `mutation($u: String!) { createDocument(input: {id: "faq", subType: "FAQ", title: "FAQ", state: PUBLISHED, contents: {text: "Q?"},
		parentDocument: "urn:li:document:root", relatedAssets: [$u], settings: {showInGlobalContext: false}}) }`, map[string]any{"u": gqlDataset})["createDocument"]
	if root != "urn:li:document:root" || doc != "urn:li:document:faq" {
		t.Fatalf("created %v %v", root, doc)
	}
	contains(t, "REST documentInfo", restAspect(t, s, "urn:li:document:faq", "documentInfo"),
		`"title":"FAQ"`, `"state":"PUBLISHED"`, `"parentDocument":{"document":"urn:li:document:root"}`, `"relatedAssets":[{"asset":"`+gqlDataset+`"}]`, `"sourceType":"NATIVE"`)
	contains(t, "REST documentSettings", restAspect(t, s, "urn:li:document:faq", "documentSettings"), `"showInGlobalContext":false`)
	contains(t, "REST ownership", restAspect(t, s, "urn:li:document:root", "ownership"), `"type":"TECHNICAL_OWNER"`)
	contains(t, "REST root documentInfo", restAspect(t, s, "urn:li:document:root", "documentInfo"), `"state":"UNPUBLISHED"`)

	gqlData(t, s, `mutation { updateDocumentContents(input: {urn: "urn:li:document:faq", title: "FAQ 2", contents: {text: "A!"}}) }`, nil)
	gqlData(t, s, `mutation { updateDocumentRelatedEntities(input: {urn: "urn:li:document:faq", relatedAssets: [], relatedDocuments: ["urn:li:document:root"]}) }`, nil)
	gqlData(t, s, `mutation { updateDocumentStatus(input: {urn: "urn:li:document:faq", state: UNPUBLISHED}) }`, nil)
	gqlData(t, s, `mutation { updateDocumentSubType(input: {urn: "urn:li:document:faq", subType: "Runbook"}) }`, nil)
	gqlData(t, s, `mutation { updateDocumentSettings(input: {urn: "urn:li:document:faq", showInGlobalContext: true}) }`, nil)
	gqlData(t, s, `mutation { moveDocument(input: {urn: "urn:li:document:faq"}) }`, nil)
	read := gqlData(t, s, `query { document(urn: "urn:li:document:faq") { info { title contents { text } status { state } } } }`, nil)
	contains(t, "GraphQL document", asJSON(read), `"title":"FAQ 2"`, `"text":"A!"`, `"state":"UNPUBLISHED"`)
	info := restAspect(t, s, "urn:li:document:faq", "documentInfo")
	contains(t, "REST documentInfo after", info, `"relatedDocuments":[{"document":"urn:li:document:root"}]`)
	if strings.Contains(info, "relatedAssets") || strings.Contains(info, "parentDocument") {
		t.Errorf("cleared members kept: %s", info)
	}
	contains(t, "REST subTypes", restAspect(t, s, "urn:li:document:faq", "subTypes"), `"typeNames":["Runbook"]`)
	contains(t, "REST documentSettings after", restAspect(t, s, "urn:li:document:faq", "documentSettings"), `"showInGlobalContext":true`)

	gqlData(t, s, `mutation { moveDocument(input: {urn: "urn:li:document:faq", parentDocument: "urn:li:document:root"}) }`, nil)
	for _, c := range []struct{ name, doc, msg string }{
		{"exists", `mutation { createDocument(input: {id: "faq", contents: {text: "x"}}) }`, "Document with ID faq already exists"},
		{"cycle", `mutation { moveDocument(input: {urn: "urn:li:document:root", parentDocument: "urn:li:document:faq"}) }`, "Cannot move document: would create a circular parent reference"},
		{"own parent", `mutation { moveDocument(input: {urn: "urn:li:document:root", parentDocument: "urn:li:document:root"}) }`, "Cannot move a Document to itself as parent"},
		{"missing parent", `mutation { moveDocument(input: {urn: "urn:li:document:root", parentDocument: "urn:li:document:ghost"}) }`, "Parent Document with URN urn:li:document:ghost does not exist"},
		{"missing", `mutation { updateDocumentStatus(input: {urn: "urn:li:document:ghost", state: PUBLISHED}) }`, "Document with URN urn:li:document:ghost does not exist"},
		{"missing delete", `mutation { deleteDocument(urn: "urn:li:document:ghost") }`, "Document with URN urn:li:document:ghost does not exist"},
	} {
		if msg, code := gqlError(t, s, c.doc, nil); msg != c.msg || code != 400 {
			t.Errorf("%s: %q %v, want %q 400", c.name, msg, code, c.msg)
		}
	}

	for _, doc := range []string{`mutation { deleteDocument(urn: "not-a-urn") }`, `mutation { moveDocument(input: {urn: "urn:li:document:root", parentDocument: "bad"}) }`,
		`mutation { deletePageModule(input: {urn: "bad"}) }`, `mutation { upsertPageTemplate(input: {rows: [{modules: ["bad"]}], scope: PERSONAL, surfaceType: HOME_PAGE}) { urn } }`} {
		if msg, code := gqlError(t, s, doc, nil); code != 400 {
			t.Errorf("%s: %q %v, want a 400", doc, msg, code)
		}
	}

	imp := gqlData(t, s, `mutation { importDocumentsFromFiles(input: {documents: [{fileName: "docs/getting_started.md", content: "# Hi"}, {fileName: "empty.md", content: " "}],
		useCase: SKILL, parentDocumentUrn: "urn:li:document:root"}) { createdCount updatedCount failedCount errors documentUrns } }`, nil)["importDocumentsFromFiles"]
	contains(t, "importDocumentsFromFiles", asJSON(imp), `"createdCount":1`, `"updatedCount":0`, `"documentUrns":["urn:li:document:upload.getting_started-`)
	again := gqlData(t, s, `mutation { importDocumentsFromFiles(input: {documents: [{fileName: "getting_started.txt", content: "# Hi again"}]}) { createdCount updatedCount } }`, nil)
	contains(t, "importDocumentsFromFiles again", asJSON(again), `"createdCount":0,"updatedCount":1`)
	u := imp.(map[string]any)["documentUrns"].([]any)[0].(string)
	contains(t, "REST imported documentInfo", restAspect(t, s, u, "documentInfo"), `"title":"Getting Started"`, `"text":"# Hi again"`, `"original_filename":"getting_started.txt"`, `"state":"PUBLISHED"`)

	gqlData(t, s, `mutation { deleteDocument(urn: "urn:li:document:faq") }`, nil)
	contains(t, "REST status", restAspect(t, s, "urn:li:document:faq", "status"), `"removed":true`)
}

// TestGraphQLPageMutations runs the page module, page template, step state
// and file mutations.
func TestGraphQLPageMutations(t *testing.T) {
	t.Parallel()
	s := mutServer(t)
	mod := gqlData(t, s, `mutation { upsertPageModule(input: {urn: "urn:li:dataHubPageModule:links", name: "Links", type: LINK, scope: GLOBAL,
		params: {linkParams: {linkUrl: "https://x"}}}) { urn properties { name type params { linkParams { linkUrl } } } } }`, nil)
	contains(t, "upsertPageModule", asJSON(mod), `"urn":"urn:li:dataHubPageModule:links"`, `"name":"Links"`, `"linkUrl":"https://x"`)
	tpl := gqlData(t, s, `mutation { upsertPageTemplate(input: {rows: [{modules: ["urn:li:dataHubPageModule:links"]}], scope: PERSONAL, surfaceType: HOME_PAGE}) { urn } }`, nil)
	tu := tpl["upsertPageTemplate"].(map[string]any)["urn"].(string)
	contains(t, "REST template", restAspect(t, s, tu, "dataHubPageTemplateProperties"), `"modules":["urn:li:dataHubPageModule:links"]`, `"surfaceType":"HOME_PAGE"`, `"scope":"PERSONAL"`)
	contains(t, "REST module", restAspect(t, s, "urn:li:dataHubPageModule:links", "dataHubPageModuleProperties"), `"type":"LINK"`, `"scope":"GLOBAL"`)

	msg, code := gqlError(t, s, `mutation { upsertPageModule(input: {name: "x", type: RICH_TEXT, scope: PERSONAL, params: {}}) { urn } }`, nil)
	if msg != "Did not provide rich text params for rich text module" || code != 400 {
		t.Errorf("module without params: %q %v", msg, code)
	}
	msg, code = gqlError(t, s, `mutation { upsertPageTemplate(input: {rows: [{modules: ["urn:li:dataHubPageModule:ghost"]}], scope: PERSONAL, surfaceType: HOME_PAGE}) { urn } }`, nil)
	if code != 500 || !strings.HasSuffix(msg, "Root cause: Failed validating template rows. Module with urn urn:li:dataHubPageModule:ghost does not exist") {
		t.Errorf("template of a missing module: %q %v", msg, code)
	}
	msg, code = gqlError(t, s, `mutation { deletePageModule(input: {urn: "urn:li:dataHubPageModule:your_assets"}) }`, nil)
	if msg != "Cannot delete default page module with urn urn:li:dataHubPageModule:your_assets" || code != 400 {
		t.Errorf("delete a default module: %q %v", msg, code)
	}
	msg, code = gqlError(t, s, `mutation { deletePageTemplate(input: {urn: "urn:li:dataHubPageTemplate:ghost"}) }`, nil)
	if msg != "Attempted to delete a page template that does not exist with urn urn:li:dataHubPageTemplate:ghost" || code != 400 {
		t.Errorf("delete a missing template: %q %v", msg, code)
	}
	gqlData(t, s, `mutation($u: String!) { deletePageTemplate(input: {urn: $u}) }`, map[string]any{"u": tu})
	gqlData(t, s, `mutation { deletePageModule(input: {urn: "urn:li:dataHubPageModule:links"}) }`, nil)
	if got := restAspect(t, s, "urn:li:dataHubPageModule:links", "dataHubPageModuleProperties"); got != "" {
		t.Errorf("deleted module kept: %s", got)
	}

	st := gqlData(t, s, `mutation { batchUpdateStepStates(input: {states: [{id: "alice-onboarding", properties: [{key: "done", value: "true"}]}]}) { results { id succeeded } } }`, nil)
	contains(t, "batchUpdateStepStates", asJSON(st), `"id":"alice-onboarding","succeeded":true`)
	contains(t, "REST step state", restAspect(t, s, "urn:li:dataHubStepState:alice-onboarding", "dataHubStepStateProperties"), `"properties":{"done":"true"}`)

	f := gqlData(t, s, `mutation { createDataHubFile(input: {id: "f1", storageKey: "k/f1", originalFileName: "a.png", mimeType: "image/png", sizeInBytes: 10, scenario: ASSET_DOCUMENTATION}) { file { urn } } }`, nil)
	contains(t, "createDataHubFile", asJSON(f), `"urn":"urn:li:dataHubFile:f1"`)
	contains(t, "REST dataHubFileInfo", restAspect(t, s, "urn:li:dataHubFile:f1", "dataHubFileInfo"), `"storageKey":"k/f1"`, `"sizeInBytes":10`)
	msg, code = gqlError(t, s, `mutation { createDataHubFile(input: {id: "f1", storageKey: "k", originalFileName: "a", mimeType: "m", sizeInBytes: 1, scenario: ASSET_DOCUMENTATION}) { file { urn } } }`, nil)
	if code != 500 || !strings.Contains(msg, "DataHubFile with id f1 already exists") {
		t.Errorf("file again: %q %v", msg, code)
	}
}

// TestGraphQLFormMutationsConcurrent sends 16 mutations of each family at
// once over HTTP on one entity: every change is kept.
func TestGraphQLFormMutationsConcurrent(t *testing.T) {
	t.Parallel()
	s := formServer(t, "COMPLETION")
	gqlData(t, s, `mutation { createDocument(input: {id: "d", contents: {text: "x"}}) }`, nil)
	for i := range 16 {
		gqlData(t, s, fmt.Sprintf(`mutation { createForm(input: {id: "f%d", name: "f%d", prompts: [{id: "p", title: "p", type: STRUCTURED_PROPERTY, structuredPropertyParams: {urn: "urn:li:structuredProperty:io.tier"}}]}) { urn } }`, i, i), nil)
	}
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			gqlData(t, s, `mutation($f: String!, $u: String!) { batchAssignForm(input: {formUrn: $f, entityUrns: [$u]}) }`,
				map[string]any{"f": fmt.Sprintf("urn:li:form:f%d", i), "u": gqlDataset})
			gqlData(t, s, `mutation($p: String!) { updateForm(input: {urn: "urn:li:form:review", promptsToAdd: [{id: $p, title: "t", type: STRUCTURED_PROPERTY, structuredPropertyParams: {urn: "urn:li:structuredProperty:io.tier"}}]}) { urn } }`,
				map[string]any{"p": fmt.Sprintf("p%d", i)})
			gqlData(t, s, `mutation($d: String!) { updateDocumentRelatedEntities(input: {urn: "urn:li:document:d", relatedDocuments: [$d]}) }`,
				map[string]any{"d": fmt.Sprintf("urn:li:document:r%d", i)})
			gqlData(t, s, `mutation($id: String!) { batchUpdateStepStates(input: {states: [{id: $id, properties: []}]}) { results { succeeded } } }`,
				map[string]any{"id": fmt.Sprintf("s%d", i)})
		})
	}
	wg.Wait()
	var forms struct{ IncompleteForms []any }
	_ = json.Unmarshal([]byte(restAspect(t, s, gqlDataset, "forms")), &forms)
	if len(forms.IncompleteForms) != 16 {
		t.Errorf("%d forms assigned, want 16", len(forms.IncompleteForms))
	}
	var info struct{ Prompts []any }
	_ = json.Unmarshal([]byte(restAspect(t, s, "urn:li:form:review", "formInfo")), &info)
	if len(info.Prompts) != 18 { // tier, cols and the 16
		t.Errorf("%d prompts kept, want 18", len(info.Prompts))
	}
	for i := range 16 {
		if restAspect(t, s, fmt.Sprintf("urn:li:dataHubStepState:s%d", i), "dataHubStepStateProperties") == "" {
			t.Errorf("step state s%d lost", i)
		}
	}
	// relatedDocuments is replaced by each call: one of the 16 is left.
	contains(t, "REST documentInfo", restAspect(t, s, "urn:li:document:d", "documentInfo"), `"relatedDocuments":[{"document":"urn:li:document:r`)
}

// TestGraphQLFormPromptsConcurrent answers 16 prompts of one form on one
// entity at once, and changes one document 16 ways at once: every answer
// and every change is kept.
func TestGraphQLFormPromptsConcurrent(t *testing.T) {
	t.Parallel()
	s := mutServer(t)
	var prompts []string
	for i := range 16 {
		gqlData(t, s, fmt.Sprintf(`mutation { createStructuredProperty(input: {qualifiedName: "io.p%d", valueType: "urn:li:dataType:datahub.string",
			entityTypes: ["urn:li:entityType:datahub.dataset"]}) { urn } }`, i), nil)
		prompts = append(prompts, fmt.Sprintf(`{id: "p%d", title: "p", type: STRUCTURED_PROPERTY, structuredPropertyParams: {urn: "urn:li:structuredProperty:io.p%d"}, required: true}`, i, i))
	}
	gqlData(t, s, `mutation { createForm(input: {id: "many", name: "Many", prompts: [`+strings.Join(prompts, ", ")+`]}) { urn } }`, nil)
	gqlData(t, s, `mutation($u: String!) { batchAssignForm(input: {formUrn: "urn:li:form:many", entityUrns: [$u]}) }`, map[string]any{"u": gqlDataset})
	gqlData(t, s, `mutation { createDocument(input: {id: "d", contents: {text: "x"}}) }`, nil)
	docMutations := []string{
		`mutation { updateDocumentStatus(input: {urn: "urn:li:document:d", state: PUBLISHED}) }`,
		`mutation { updateDocumentSubType(input: {urn: "urn:li:document:d", subType: "FAQ"}) }`,
		`mutation { updateDocumentSettings(input: {urn: "urn:li:document:d", showInGlobalContext: false}) }`,
		`mutation { updateDocumentContents(input: {urn: "urn:li:document:d", title: "T"}) }`,
	}
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			gqlData(t, s, `mutation($u: String!, $p: String!, $sp: String!) { submitFormPrompt(urn: $u, input: {promptId: $p, formUrn: "urn:li:form:many", type: STRUCTURED_PROPERTY,
				structuredPropertyParams: {structuredPropertyUrn: $sp, values: [{stringValue: "v"}]}}) }`,
				map[string]any{"u": gqlDataset, "p": fmt.Sprintf("p%d", i), "sp": fmt.Sprintf("urn:li:structuredProperty:io.p%d", i)})
			gqlData(t, s, docMutations[i%len(docMutations)], nil)
		})
	}
	wg.Wait()
	var forms struct {
		IncompleteForms []any
		CompletedForms  []struct{ CompletedPrompts, IncompletePrompts []any }
	}
	_ = json.Unmarshal([]byte(restAspect(t, s, gqlDataset, "forms")), &forms)
	if len(forms.IncompleteForms) != 0 || len(forms.CompletedForms) != 1 || len(forms.CompletedForms[0].CompletedPrompts) != 16 || len(forms.CompletedForms[0].IncompletePrompts) != 0 {
		t.Errorf("forms after 16 answers: %s", restAspect(t, s, gqlDataset, "forms"))
	}
	var props struct{ Properties []any }
	_ = json.Unmarshal([]byte(restAspect(t, s, gqlDataset, "structuredProperties")), &props)
	if len(props.Properties) != 16 {
		t.Errorf("%d structured properties kept, want 16", len(props.Properties))
	}
	contains(t, "REST documentInfo", restAspect(t, s, "urn:li:document:d", "documentInfo"), `"state":"PUBLISHED"`, `"title":"T"`)
	contains(t, "REST subTypes", restAspect(t, s, "urn:li:document:d", "subTypes"), `"typeNames":["FAQ"]`)
	contains(t, "REST documentSettings", restAspect(t, s, "urn:li:document:d", "documentSettings"), `"showInGlobalContext":false`)
}
