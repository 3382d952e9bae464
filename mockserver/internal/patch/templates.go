package patch

import (
	"encoding/json"
	"slices"
	"strconv"
	"time"

	"github.com/catalogkit/datahub-go/internal/javanum"
)

// systemActor is DataHub's SYSTEM_ACTOR, the actor of template defaults.
const systemActor = "urn:li:corpuser:__datahub_system"

// template is one aspect's patch semantics (DataHub's Template): the value
// an absent aspect starts from, and the transform of the aspect into the
// shape paths address (keyed arrays as maps) and back.
type template struct {
	// defaults returns the starting value of an absent aspect; nil when the
	// template has none (an absent aspect cannot be patched).
	defaults func(now time.Time) *object
	// keyed are the aspect's keyed arrays.
	keyed []keyedArray
	// transform and rebase, when set, run after the keyed arrays.
	transform func(o *object, now time.Time) error
	rebase    func(o *object, now time.Time) error
}

func (t *template) toPatchShape(o *object, now time.Time) error {
	for _, k := range t.keyed {
		if err := k.toMap(o); err != nil {
			return err
		}
	}
	if t.transform != nil {
		return t.transform(o, now)
	}
	return nil
}

func (t *template) fromPatchShape(o *object, now time.Time) error {
	for _, k := range t.keyed {
		k.toArray(o)
	}
	if t.rebase != nil {
		return t.rebase(o, now)
	}
	return nil
}

// stamp returns {"time": now, "actor": SYSTEM_ACTOR}, in the member order
// of the template that writes it.
func stamp(now time.Time, timeFirst bool) *object {
	o := newObject()
	ms := json.Number(strconv.FormatInt(now.UnixMilli(), 10))
	if timeFirst {
		o.set("time", ms)
		o.set("actor", systemActor)
	} else {
		o.set("actor", systemActor)
		o.set("time", ms)
	}
	return o
}

func emptyArray() *array { return &array{elems: []any{}} }

// The keyed arrays DataHub's templates use.
var (
	tagsByTag     = keyedArray{field: "tags", keys: []string{"tag"}, reinject: true}
	termsByURN    = keyedArray{field: "terms", keys: []string{"urn"}, reinject: true}
	ownersByOwner = keyedArray{field: "owners", keys: []string{"owner", "type"}, reinject: true}
	upstreamsByDS = keyedArray{field: "upstreams", keys: []string{"dataset"}, reinject: true}
	fieldsByPath  = keyedArray{field: "editableSchemaFieldInfo", keys: []string{"fieldPath"}, reinject: true}
)

// edges returns an Edge array keyed by destinationUrn.
func edges(field string) keyedArray {
	return keyedArray{field: field, keys: []string{"destinationUrn"}, reinject: true}
}

// withFields returns a defaults function: an object with the given
// members, arrays and objects fresh each call.
func withFields(members ...any) func(time.Time) *object {
	return func(now time.Time) *object {
		o := newObject()
		for i := 0; i+1 < len(members); i += 2 {
			v := members[i+1]
			switch v {
			case "[]":
				v = emptyArray()
			case "{}":
				v = newObject()
			case "stamp":
				v = stamp(now, false)
			case "changeStamps":
				c := newObject()
				c.set("created", stamp(now, false))
				c.set("lastModified", stamp(now, false))
				v = c
			}
			o.set(members[i].(string), v)
		}
		return o
	}
}

func fineGrained(o *object, _ time.Time) error   { return fineGrainedToMap(o) }
func unFineGrained(o *object, _ time.Time) error { return fineGrainedToArray(o) }

// stringArray is a string array keyed by its values.
func stringArray(field string) keyedArray { return keyedArray{field: field} }

// glossaryTermsShape adds the deprecated but required auditStamp when it
// is missing, as GlossaryTermsTemplate does in both directions.
func glossaryTermsShape(o *object, now time.Time) error {
	if _, ok := o.get("auditStamp"); !ok {
		o.set("auditStamp", stamp(now, false))
	}
	return nil
}

// templates are the aspects with a patch template in DataHub GMS
// (AspectTemplateEngine / the entity registry's template map), with
// their defaults and keyed arrays.
var templates = map[string]*template{
	"globalTags": {
		defaults: func(time.Time) *object { o := newObject(); o.set("tags", emptyArray()); return o },
		keyed:    []keyedArray{tagsByTag},
	},
	"glossaryTerms": {
		defaults: func(now time.Time) *object {
			o := newObject()
			o.set("terms", emptyArray())
			o.set("auditStamp", stamp(now, false))
			return o
		},
		keyed:     []keyedArray{termsByURN},
		transform: glossaryTermsShape,
		rebase:    glossaryTermsShape,
	},
	"ownership": {
		defaults: func(now time.Time) *object {
			o := newObject()
			o.set("owners", emptyArray())
			o.set("lastModified", stamp(now, true))
			return o
		},
		keyed: []keyedArray{ownersByOwner},
	},
	"upstreamLineage": {
		defaults: func(time.Time) *object {
			o := newObject()
			o.set("upstreams", emptyArray())
			o.set("fineGrainedLineages", emptyArray())
			return o
		},
		keyed:     []keyedArray{upstreamsByDS},
		transform: fineGrained,
		rebase:    unFineGrained,
	},
	"datasetProperties": {
		defaults: func(time.Time) *object {
			o := newObject()
			o.set("tags", emptyArray())
			o.set("customProperties", newObject())
			return o
		},
		keyed: []keyedArray{stringArray("tags")},
	},
	"editableSchemaMetadata": {
		defaults: func(now time.Time) *object {
			o := newObject()
			o.set("created", stamp(now, false))
			o.set("lastModified", stamp(now, false))
			o.set("editableSchemaFieldInfo", emptyArray())
			return o
		},
		keyed:     []keyedArray{fieldsByPath},
		transform: editableFieldsToMap,
		rebase:    editableFieldsToArray,
	},
	"editableDatasetProperties": {
		defaults: func(time.Time) *object { return newObject() },
	},
	// EditableContainerPropertiesTemplate and
	// EditableMLModelGroupPropertiesTemplate (in SUPPORTED_TEMPLATES after
	// DataHub v1.3.0): an empty default, no keyed arrays.
	"editableContainerProperties": {
		defaults: func(time.Time) *object { return newObject() },
	},
	"editableMlModelGroupProperties": {
		defaults: func(time.Time) *object { return newObject() },
	},
	// VersionPropertiesTemplate: no default ("no sensible default for
	// version set"), no keyed arrays.
	"versionProperties": {},
	"domains": {
		defaults: func(time.Time) *object { o := newObject(); o.set("domains", emptyArray()); return o },
		keyed:    []keyedArray{stringArray("domains")},
	},
	"status": {
		defaults: func(time.Time) *object { o := newObject(); o.set("removed", false); return o },
	},
	"siblings": {
		defaults: withFields("siblings", "[]", "primary", false),
		keyed:    []keyedArray{stringArray("siblings")},
	},
	"structuredProperties": {
		defaults: withFields("properties", "[]"),
		keyed:    []keyedArray{{field: "properties", keys: []string{"propertyUrn"}, reinject: true}},
	},
	"dataProductProperties": {
		defaults: withFields("assets", "[]"),
		keyed:    []keyedArray{edges("assets")},
	},
	"dataFlowInfo": {defaults: withFields("customProperties", "{}")},
	"dataJobInfo":  {defaults: withFields("customProperties", "{}")},
	"dataJobInputOutput": {
		defaults: withFields("inputDatajobEdges", "[]", "inputDatasetEdges", "[]", "outputDatasetEdges", "[]",
			"fineGrainedLineages", "[]", "inputDatasetFields", "[]", "outputDatasetFields", "[]",
			"inputDatajobs", "[]", "inputDatasets", "[]", "outputDatasets", "[]"),
		keyed: []keyedArray{edges("inputDatajobEdges"), edges("inputDatasetEdges"), edges("outputDatasetEdges"),
			stringArray("inputDatasetFields"), stringArray("outputDatasetFields")},
		transform: fineGrained,
		rebase:    unFineGrained,
	},
	"chartInfo": {
		defaults: withFields("description", "", "title", "", "lastModified", "changeStamps", "inputEdges", "[]", "inputs", "[]"),
		keyed:    []keyedArray{edges("inputEdges"), stringArray("inputs")},
	},
	"dashboardInfo": {
		defaults: withFields("title", "", "description", "", "lastModified", "changeStamps",
			"chartEdges", "[]", "datasetEdges", "[]", "datasets", "[]", "charts", "[]"),
		keyed: []keyedArray{edges("chartEdges"), edges("datasetEdges"), edges("dashboards"), stringArray("datasets"), stringArray("charts")},
	},
	// DocumentationTemplate: documentations keyed by their attribution
	// source alone, so an unattributed entry has the key "".
	"documentation": {
		defaults: withFields("documentations", "[]"),
		keyed:    []keyedArray{{field: "documentations", keys: []string{"attribution" + unitSeparator + "source"}}},
	},
	// StructuredPropertyDefinitionTemplate: entityTypes and (when present)
	// allowedPlatforms by value, allowedValues by the value's union member.
	"propertyDefinition": {
		defaults:  withFields("qualifiedName", "", "valueType", "urn:li:dataType:datahub.string", "entityTypes", "[]"),
		keyed:     []keyedArray{stringArray("entityTypes")},
		transform: definitionToMap,
		rebase:    definitionToArray,
	},
	// FormInfoTemplate: prompts by id; actors.users and actors.groups by
	// value, actors created when missing (in both directions).
	"formInfo": {
		defaults:  withFields("name", ""),
		keyed:     []keyedArray{{field: "prompts", keys: []string{"id"}, reinject: true}},
		transform: formActorsToMap,
		rebase:    formActorsToArray,
	},
}

// definitionToMap keys a structured property definition's allowedPlatforms
// by value and its allowedValues by value: by the member of the first
// element's value union ("value␟string", "value␟double"), as
// StructuredPropertyDefinitionTemplate does. Absent fields stay absent.
func definitionToMap(o *object, _ time.Time) error {
	if _, ok := o.get("allowedPlatforms"); ok {
		if err := stringArray("allowedPlatforms").toMap(o); err != nil {
			return err
		}
	}
	v, ok := o.get("allowedValues")
	if !ok {
		return nil
	}
	key := "value"
	a, _ := v.(*array)
	if a != nil && len(a.elems) > 0 {
		if e, ok := a.elems[0].(*object); ok {
			if val, ok := e.vals["value"].(*object); ok && len(val.keys) > 0 {
				key = "value" + unitSeparator + val.keys[0]
			}
		}
	}
	if err := (keyedArray{field: "allowedValues", keys: []string{key}}).toMap(o); err != nil {
		return err
	}
	if key != "value"+unitSeparator+"double" || a == nil {
		return nil
	}
	// GMS keys a stored double by Java's text of it (90.0, 1.0E7), where
	// the mock holds the number as it was sent (90): re-key the doubles.
	m := o.vals["allowedValues"].(*object)
	rekeyed := newObject()
	for _, k := range m.keys {
		nk := k
		if f, err := strconv.ParseFloat(k, 64); err == nil {
			nk = javanum.Double(f)
		}
		rekeyed.set(nk, m.vals[k])
	}
	o.set("allowedValues", rekeyed)
	return nil
}

// definitionToArray undoes definitionToMap; allowedValues are flattened one
// level, with no key put back (the key is a union).
func definitionToArray(o *object, _ time.Time) error {
	if _, ok := o.get("allowedPlatforms"); ok {
		stringArray("allowedPlatforms").toArray(o)
	}
	if _, ok := o.get("allowedValues"); ok {
		keyedArray{field: "allowedValues", keys: []string{"value"}}.toArray(o)
	}
	return nil
}

// formActors returns a form's actors object, creating it when it is
// missing or not an object.
func formActors(o *object) *object {
	a, ok := o.vals["actors"].(*object)
	if !ok {
		a = newObject()
		o.set("actors", a)
	}
	return a
}

// formActorsToMap keys actors.users and actors.groups by value.
func formActorsToMap(o *object, _ time.Time) error {
	a := formActors(o)
	if err := stringArray("users").toMap(a); err != nil {
		return err
	}
	return stringArray("groups").toMap(a)
}

// formActorsToArray undoes formActorsToMap.
func formActorsToArray(o *object, _ time.Time) error {
	a := formActors(o)
	stringArray("users").toArray(a)
	stringArray("groups").toArray(a)
	return nil
}

// editableFieldsToMap keys each field's globalTags.tags and
// glossaryTerms.terms, as EditableSchemaMetadataTemplate does.
func editableFieldsToMap(o *object, now time.Time) error {
	fields, _ := o.vals["editableSchemaFieldInfo"].(*object)
	if fields == nil {
		return nil
	}
	for _, path := range fields.keys {
		f, ok := fields.vals[path].(*object)
		if !ok {
			continue
		}
		if gt, ok := f.vals["globalTags"].(*object); ok {
			if err := tagsByTag.toMap(gt); err != nil {
				return err
			}
		}
		if terms, ok := f.vals["glossaryTerms"].(*object); ok {
			_ = glossaryTermsShape(terms, now)
			if err := termsByURN.toMap(terms); err != nil {
				return err
			}
		}
	}
	return nil
}

// editableFieldsToArray undoes editableFieldsToMap on every field.
func editableFieldsToArray(o *object, now time.Time) error {
	fields, _ := o.vals["editableSchemaFieldInfo"].(*array)
	if fields == nil {
		return nil
	}
	for _, e := range fields.elems {
		f, ok := e.(*object)
		if !ok {
			continue
		}
		if gt, ok := f.vals["globalTags"].(*object); ok {
			tagsByTag.toArray(gt)
		}
		if terms, ok := f.vals["glossaryTerms"].(*object); ok {
			_ = glossaryTermsShape(terms, now)
			termsByURN.toArray(terms)
		}
	}
	return nil
}

// Templates returns the names of the aspects this package has a patch
// template for, sorted.
func Templates() []string {
	names := make([]string, 0, len(templates))
	for n := range templates {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// HasTemplate reports whether aspect has a patch template, that is whether
// a plain (non-generic) patch of it can succeed.
func HasTemplate(aspect string) bool {
	_, ok := templates[aspect]
	return ok
}
