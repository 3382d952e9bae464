package aspects

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/internal/pdl"
	"github.com/google/go-cmp/cmp"
)

// unionMembers lists, for each union interface of the package, its member
// types; the coverage check pairs them with the PDL union's members by key.
var unionMembers = map[reflect.Type][]unionMember{
	reflect.TypeFor[FieldType]():      asMembers(fieldTypes),
	reflect.TypeFor[PlatformSchema](): asMembers(platformSchemas),
	reflect.TypeFor[ForeignKey]():     asMembers(foreignKeys),
}

func asMembers[T unionMember](ms []T) []unionMember {
	out := make([]unionMember, len(ms))
	for i, m := range ms {
		out[i] = m
	}
	return out
}

// enumValues lists the constants this package declares for each PDL enum.
var enumValues = map[string]struct {
	goType reflect.Type
	values []string
}{
	"com.linkedin.common.FabricType":           {reflect.TypeFor[FabricType](), strs(FabricDev, FabricTest, FabricQA, FabricUAT, FabricEI, FabricPre, FabricStg, FabricNonProd, FabricProd, FabricCorp, FabricRvw, FabricPrd, FabricTst, FabricSIT, FabricSbx, FabricSandbox, FabricCert)},
	"com.linkedin.common.MLFeatureDataType":    {reflect.TypeFor[MLFeatureDataType](), strs(MLFeatureDataTypeUseless, MLFeatureDataTypeNominal, MLFeatureDataTypeOrdinal, MLFeatureDataTypeBinary, MLFeatureDataTypeCount, MLFeatureDataTypeTime, MLFeatureDataTypeInterval, MLFeatureDataTypeImage, MLFeatureDataTypeVideo, MLFeatureDataTypeAudio, MLFeatureDataTypeText, MLFeatureDataTypeMap, MLFeatureDataTypeSequence, MLFeatureDataTypeSet, MLFeatureDataTypeContinuous, MLFeatureDataTypeByte, MLFeatureDataTypeUnknown)},
	"com.linkedin.common.OwnershipType":        {reflect.TypeFor[OwnershipType](), strs(OwnershipTypeCustom, OwnershipTypeTechnicalOwner, OwnershipTypeBusinessOwner, OwnershipTypeDataSteward, OwnershipTypeNone, OwnershipTypeDeveloper, OwnershipTypeDataOwner, OwnershipTypeDelegate, OwnershipTypeProducer, OwnershipTypeConsumer, OwnershipTypeStakeholder)},
	"com.linkedin.common.OwnershipSourceType":  {reflect.TypeFor[OwnershipSourceType](), strs(OwnershipSourceAudit, OwnershipSourceDatabase, OwnershipSourceFileSystem, OwnershipSourceIssueTrackingSystem, OwnershipSourceManual, OwnershipSourceService, OwnershipSourceSourceControl, OwnershipSourceOther)},
	"com.linkedin.common.OperationType":        {reflect.TypeFor[OperationType](), strs(OperationTypeInsert, OperationTypeUpdate, OperationTypeDelete, OperationTypeCreate, OperationTypeAlter, OperationTypeDrop, OperationTypeCustom, OperationTypeUnknown)},
	"com.linkedin.common.OperationSourceType":  {reflect.TypeFor[OperationSourceType](), strs(OperationSourceDataProcess, OperationSourceDataPlatform)},
	"com.linkedin.dataplatform.PlatformType":   {reflect.TypeFor[PlatformType](), strs(PlatformTypeFileSystem, PlatformTypeKeyValueStore, PlatformTypeMessageBroker, PlatformTypeObjectStore, PlatformTypeOLAPDatastore, PlatformTypeOthers, PlatformTypeQueryEngine, PlatformTypeRelationalDB, PlatformTypeSearchEngine)},
	"com.linkedin.test.TestDefinitionType":     {reflect.TypeFor[TestDefinitionType](), strs(TestDefinitionJSON)},
	"com.linkedin.test.TestResultType":         {reflect.TypeFor[TestResultType](), strs(TestResultSuccess, TestResultFailure)},
	"com.linkedin.timeseries.CalendarInterval": {reflect.TypeFor[CalendarInterval](), strs(CalendarIntervalSecond, CalendarIntervalMinute, CalendarIntervalHour, CalendarIntervalDay, CalendarIntervalWeek, CalendarIntervalMonth, CalendarIntervalQuarter, CalendarIntervalYear)},
	"com.linkedin.timeseries.PartitionType":    {reflect.TypeFor[PartitionType](), strs(PartitionTypeFullTable, PartitionTypeQuery, PartitionTypePartition)},
}

// handTyped returns the names of the aspects typed by hand, sorted; the
// generated ones are checked against the PDL tree by TestGeneratedFields.
func handTyped() []string {
	return slices.Sorted(maps.Keys(typed))
}

func strs[T ~string](vs ...T) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = string(v)
	}
	return out
}

// jsonField is a struct field as encoding/json sees it.
type jsonField struct {
	goName string
	typ    reflect.Type
	omit   bool // omitempty or omitzero
}

func jsonFields(t reflect.Type) map[string]jsonField {
	out := map[string]jsonField{}
	for f := range t.Fields() {
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" {
			name = f.Name
		}
		omit := false
		for o := range strings.SplitSeq(opts, ",") {
			if o == "omitempty" || o == "omitzero" {
				omit = true
			}
		}
		out[name] = jsonField{goName: f.Name, typ: f.Type, omit: omit}
	}
	return out
}

// coverage compares Go types with PDL records.
type coverage struct {
	problems []string
	records  map[string]bool // "<record>|<go type>" checked
	fields   int
	enums    map[string]bool
	unions   int
}

func (c *coverage) failf(format string, args ...any) {
	c.problems = append(c.problems, fmt.Sprintf(format, args...))
}

// record checks the Go struct gt against the PDL record name.
func (c *coverage) record(name string, gt reflect.Type, path string) {
	key := name + "|" + gt.String()
	if c.records[key] {
		return
	}
	c.records[key] = true
	rs, ok := pdl.Record(name)
	if !ok {
		c.failf("%s: PDL record %s not in internal/pdl", path, name)
		return
	}
	if gt.Kind() != reflect.Struct {
		c.failf("%s: record %s is Go %s, want a struct", path, name, gt)
		return
	}
	simple := name[strings.LastIndex(name, ".")+1:]
	if !strings.EqualFold(gt.Name(), simple) {
		c.failf("%s: Go type %s is not named after record %s", path, gt.Name(), name)
	}
	goFields := jsonFields(gt)
	pdlNames := map[string]bool{}
	for _, f := range rs.Fields {
		c.fields++
		pdlNames[f.Name] = true
		fp := path + "." + f.Name
		gf, ok := goFields[f.Name]
		if !ok {
			c.failf("%s: PDL field %s.%s has no Go field with that JSON name", fp, name, f.Name)
			continue
		}
		ft := gf.typ
		switch {
		case f.Optional && f.Default == nil:
			if !gf.omit {
				c.failf("%s: optional PDL field, but Go field %s has no omitempty/omitzero", fp, gf.goName)
			}
			switch f.Type.Kind {
			case pdl.KindArray, pdl.KindMap:
				// nil slice or map = unset
			default:
				if ft.Kind() != reflect.Pointer && ft.Kind() != reflect.Interface {
					c.failf("%s: optional PDL field, but Go field %s is %s, want a pointer", fp, gf.goName, ft)
				}
			}
		case !f.Optional && f.Default == nil:
			if gf.omit {
				c.failf("%s: required PDL field, but Go field %s has an omit option", fp, gf.goName)
			}
		default:
			// A field with a PDL default is always emitted (the Python SDK
			// writes defaults), so it carries no omit option.
			if gf.omit {
				c.failf("%s: PDL field with default %s, but Go field %s has an omit option", fp, f.Default, gf.goName)
			}
		}
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		c.typ(f.Type, ft, fp)
	}
	for jn, gf := range goFields {
		if !pdlNames[jn] {
			c.failf("%s: Go field %s (JSON %q) is not a field of PDL record %s", path, gf.goName, jn, name)
		}
	}
}

var primitiveKinds = map[pdl.Kind]reflect.Kind{
	pdl.KindString:  reflect.String,
	pdl.KindInt:     reflect.Int32,
	pdl.KindLong:    reflect.Int64,
	pdl.KindFloat:   reflect.Float32,
	pdl.KindDouble:  reflect.Float64,
	pdl.KindBoolean: reflect.Bool,
}

func (c *coverage) typ(pt pdl.Type, gt reflect.Type, path string) {
	if k, ok := primitiveKinds[pt.Kind]; ok {
		if gt.Kind() != k {
			c.failf("%s: PDL %s is Go %s, want kind %s", path, pt.Kind, gt, k)
		}
		return
	}
	switch pt.Kind {
	case pdl.KindEnum:
		c.enums[pt.Name] = true
		e, ok := enumValues[pt.Name]
		if !ok {
			c.failf("%s: enum %s has no constants table in this test", path, pt.Name)
			return
		}
		if gt != e.goType {
			c.failf("%s: enum %s is Go %s, want %s", path, pt.Name, gt, e.goType)
		}
		if diff := cmp.Diff(pt.Symbols, e.values); diff != "" {
			c.failf("%s: enum %s constants differ from PDL symbols (-pdl +go):\n%s", path, pt.Name, diff)
		}
	case pdl.KindRecord:
		c.record(pt.Name, gt, path)
	case pdl.KindArray:
		if gt.Kind() != reflect.Slice {
			c.failf("%s: PDL array is Go %s", path, gt)
			return
		}
		c.typ(*pt.Items, gt.Elem(), path+"[]")
	case pdl.KindMap:
		if gt.Kind() != reflect.Map || gt.Key().Kind() != reflect.String {
			c.failf("%s: PDL map is Go %s", path, gt)
			return
		}
		c.typ(*pt.Items, gt.Elem(), path+"{}")
	case pdl.KindUnion:
		c.unions++
		c.union(pt, gt, path)
	default:
		c.failf("%s: PDL kind %s is not handled by this package", path, pt.Kind)
	}
}

func (c *coverage) union(pt pdl.Type, gt reflect.Type, path string) {
	var pdlKeys []string
	for _, m := range pt.Members {
		pdlKeys = append(pdlKeys, m.Key())
	}
	switch gt.Kind() {
	case reflect.Interface:
		members, ok := unionMembers[gt]
		if !ok {
			c.failf("%s: union interface %s has no member list", path, gt)
			return
		}
		var goKeys []string
		byKey := map[string]unionMember{}
		for _, m := range members {
			goKeys = append(goKeys, m.unionKey())
			byKey[m.unionKey()] = m
			if !reflect.TypeOf(m).Implements(gt) || !reflect.PointerTo(reflect.TypeOf(m)).Implements(gt) {
				c.failf("%s: member %T does not implement %s", path, m, gt)
			}
		}
		if diff := cmp.Diff(pdlKeys, goKeys); diff != "" {
			c.failf("%s: union members differ (-pdl +go):\n%s", path, diff)
		}
		for _, m := range pt.Members {
			if gm, ok := byKey[m.Key()]; ok {
				c.typ(m.Type, reflect.TypeOf(gm), path+"<"+m.Key()+">")
			}
		}
	case reflect.Struct:
		// A union of primitives as a struct of pointers, one per member.
		fields := jsonFields(gt)
		var goKeys []string
		for k, f := range fields {
			goKeys = append(goKeys, k)
			if f.typ.Kind() != reflect.Pointer || !f.omit {
				c.failf("%s: union member field %s must be a pointer with omitempty", path, f.goName)
			}
		}
		sort.Strings(goKeys)
		sorted := slices.Sorted(slices.Values(pdlKeys))
		if diff := cmp.Diff(sorted, goKeys); diff != "" {
			c.failf("%s: union members differ (-pdl +go):\n%s", path, diff)
		}
		for _, m := range pt.Members {
			if f, ok := fields[m.Key()]; ok && f.typ.Kind() == reflect.Pointer {
				c.typ(m.Type, f.typ.Elem(), path+"<"+m.Key()+">")
			}
		}
	default:
		c.failf("%s: PDL union is Go %s", path, gt)
	}
}

// TestPDLCoverage checks every typed aspect against its PDL record, as
// generated into internal/pdl from DataHub's files: every PDL field has a Go
// field with the same JSON name and optionality, every Go field is a PDL
// field, types match (recursing into nested records, arrays, maps and
// union members), and enum constants equal the PDL symbols.
func TestPDLCoverage(t *testing.T) {
	t.Parallel()
	c := &coverage{records: map[string]bool{}, enums: map[string]bool{}}
	for _, name := range handTyped() {
		info, ok := pdl.LookupAspect(name)
		if !ok {
			t.Errorf("typed aspect %s is not in DataHub's entity registry", name)
			continue
		}
		v, _ := New(name)
		c.record(info.RecordName, reflect.TypeOf(v).Elem(), name)
	}
	for _, p := range c.problems {
		t.Error(p)
	}
	for name := range enumValues {
		if !c.enums[name] {
			t.Errorf("enum table entry %s is not reached from any typed aspect", name)
		}
	}
	t.Logf("PDL coverage: %d aspects, %d record/struct pairs, %d fields, %d enums, %d unions checked; %d problems",
		len(handTyped()), len(c.records), c.fields, len(c.enums), c.unions, len(c.problems))
}

// status is a deliberately wrong copy of Status for TestPDLCoverageCatches.
type status struct {
	Removed        *bool  `json:"removed,omitempty"` // defaulted: must not omit
	LifecycleStage string `json:"lifecycleStage"`    // optional: must be a pointer with omit
	Extra          string `json:"extra"`             // not in the PDL
	// lifecycleLastUpdated missing
}

// ownership is a deliberately wrong copy of Ownership.
type ownership struct {
	Owners       []owner             `json:"owners,omitzero"` // required: must not omit
	OwnerTypes   map[string][]string `json:"ownerTypes"`
	LastModified AuditStamp          `json:"lastmodified"` // wrong JSON name
}

type owner struct {
	Owner string               `json:"owner"`
	Type  FabricType           `json:"type"` // wrong enum type
	URN   *string              `json:"typeUrn,omitempty"`
	Src   *int64               `json:"source,omitempty"` // wrong type: record as int64
	Attr  *MetadataAttribution `json:"attribution,omitempty"`
}

// TestPDLCoverageCatches checks that the coverage check reports mistakes.
func TestPDLCoverageCatches(t *testing.T) {
	t.Parallel()
	tests := []struct {
		record string
		typ    reflect.Type
		want   []string // substrings, one per expected problem
	}{
		{"com.linkedin.common.Status", reflect.TypeFor[status](), []string{
			"removed: PDL field with default",
			"lifecycleStage: optional PDL field, but Go field LifecycleStage has no omitempty",
			"lifecycleStage: optional PDL field, but Go field LifecycleStage is string, want a pointer",
			"lifecycleLastUpdated: PDL field com.linkedin.common.Status.lifecycleLastUpdated has no Go field",
			`Go field Extra (JSON "extra") is not a field`,
		}},
		{"com.linkedin.common.Ownership", reflect.TypeFor[ownership](), []string{
			"owners: required PDL field, but Go field Owners has an omit option",
			"type: enum com.linkedin.common.OwnershipType is Go aspects.FabricType",
			"source: record com.linkedin.common.OwnershipSource is Go int64",
			"lastModified: PDL field com.linkedin.common.Ownership.lastModified has no Go field",
			`Go field LastModified (JSON "lastmodified") is not a field`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.record, func(t *testing.T) {
			t.Parallel()
			c := &coverage{records: map[string]bool{}, enums: map[string]bool{}}
			c.record(tt.record, tt.typ, "x")
			if len(c.problems) != len(tt.want) {
				t.Errorf("got %d problems, want %d:\n%s", len(c.problems), len(tt.want), strings.Join(c.problems, "\n"))
			}
			for _, w := range tt.want {
				if !slices.ContainsFunc(c.problems, func(p string) bool { return strings.Contains(p, w) }) {
					t.Errorf("no problem mentions %q; got:\n%s", w, strings.Join(c.problems, "\n"))
				}
			}
		})
	}
}

// populated records, for JSON checked against PDL types, which records were
// reached and which of their fields were present.
type populated struct {
	reached map[string]bool
	present map[string]map[string]bool
}

func (p *populated) value(pt pdl.Type, v any) {
	switch pt.Kind {
	case pdl.KindRecord:
		obj, ok := v.(map[string]any)
		if !ok {
			return
		}
		rs, ok := pdl.Record(pt.Name)
		if !ok {
			return
		}
		p.reached[pt.Name] = true
		if p.present[pt.Name] == nil {
			p.present[pt.Name] = map[string]bool{}
		}
		for _, f := range rs.Fields {
			if fv, ok := obj[f.Name]; ok {
				p.present[pt.Name][f.Name] = true
				p.value(f.Type, fv)
			}
		}
	case pdl.KindArray:
		items, _ := v.([]any)
		for _, it := range items {
			p.value(*pt.Items, it)
		}
	case pdl.KindMap:
		m, _ := v.(map[string]any)
		for _, it := range m {
			p.value(*pt.Items, it)
		}
	case pdl.KindUnion:
		m, _ := v.(map[string]any)
		for _, mem := range pt.Members {
			if mv, ok := m[mem.Key()]; ok {
				p.value(mem.Type, mv)
			}
		}
	}
}

// TestFullGoldensPopulateEveryField checks that the "full" golden files set
// every PDL field of every record they reach, so that the round trips
// exercise every field.
func TestFullGoldensPopulateEveryField(t *testing.T) {
	t.Parallel()
	p := &populated{reached: map[string]bool{}, present: map[string]map[string]bool{}}
	for _, name := range handTyped() {
		info, _ := pdl.LookupAspect(name)
		v, err := decodeAny(mustRead(t, "testdata/"+name+".full.json"))
		if err != nil {
			t.Fatal(err)
		}
		p.value(pdl.Type{Kind: pdl.KindRecord, Name: info.RecordName}, v)
	}
	fields := 0
	for rec := range p.reached {
		rs, _ := pdl.Record(rec)
		for _, f := range rs.Fields {
			fields++
			if !p.present[rec][f.Name] {
				t.Errorf("full goldens reach %s but never set its field %s", rec, f.Name)
			}
		}
	}
	t.Logf("full goldens reach %d records and set all of their %d fields", len(p.reached), fields)
}
