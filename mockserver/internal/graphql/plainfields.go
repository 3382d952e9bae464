package graphql

// Plain fields: the fields of the most read resolver types (a search hit,
// a dataset, a feature table and its features) are answered by a switch on
// the field's name that calls the same methods the default resolver would
// find by reflection, without reflection's cost per call (its call frame,
// its result slice). Only methods that take no context and no arguments and
// return no error are answered so; TestPlainFields checks every answer
// against the reflective one.

// A field whose value is a Go string is answered by plainString too (and
// plainField gives what it gives), which the executor writes without
// boxing the string in an interface.

// plainFielder is a resolver value that answers some of its fields itself.
// plainField returns the value of the field name as the method of that name
// returns it, and false for a field it leaves to reflection.
type plainFielder interface {
	plainField(name string) (any, bool)
}

// plainStringer is a plainFielder some of whose plain fields are strings:
// plainString returns them, false for any other field.
type plainStringer interface {
	plainString(name string) (string, bool)
}

func (s *searchResultR) plainField(name string) (any, bool) {
	switch name {
	case "entity":
		return s.Entity(), true
	case "matchedFields":
		return s.MatchedFields(), true
	}
	return nil, false
}

func (m *matchedFieldR) plainString(name string) (string, bool) {
	switch name {
	case "name":
		return m.Name(), true
	case "value":
		return m.Value(), true
	}
	return "", false
}

func (m *matchedFieldR) plainField(name string) (any, bool) {
	if v, ok := m.plainString(name); ok {
		return v, true
	}
	return nil, false
}

func (r *dataPlatformR) plainString(name string) (string, bool) {
	switch name {
	case "urn":
		return r.Urn(), true
	case "type":
		return r.Type(), true
	case "name":
		return r.Name(), true
	}
	return "", false
}

func (r *dataPlatformR) plainField(name string) (any, bool) {
	if v, ok := r.plainString(name); ok {
		return v, true
	}
	return nil, false
}

func (d *datasetR) plainString(name string) (string, bool) {
	switch name {
	case "urn":
		return d.Urn(), true
	case "type":
		return d.Type(), true
	case "name":
		return d.Name(), true
	case "origin":
		return d.Origin(), true
	}
	return "", false
}

func (d *datasetR) plainField(name string) (any, bool) {
	if v, ok := d.plainString(name); ok {
		return v, true
	}
	switch name {
	case "platform":
		return d.Platform(), true
	case "description":
		return d.Description(), true
	case "properties":
		return d.Properties(), true
	}
	return nil, false
}

func (p *datasetPropertiesR) plainField(name string) (any, bool) {
	switch name {
	case "name":
		return p.Name(), true
	case "qualifiedName":
		return p.QualifiedName(), true
	case "origin":
		return p.Origin(), true
	case "description":
		return p.Description(), true
	case "externalUrl":
		return p.ExternalUrl(), true
	}
	return nil, false
}

func (t *mlFeatureTableR) plainString(name string) (string, bool) {
	switch name {
	case "urn":
		return t.Urn(), true
	case "type":
		return t.Type(), true
	case "name":
		return t.Name(), true
	}
	return "", false
}

func (t *mlFeatureTableR) plainField(name string) (any, bool) {
	if v, ok := t.plainString(name); ok {
		return v, true
	}
	switch name {
	case "platform":
		return t.Platform(), true
	case "description":
		return t.Description(), true
	case "properties":
		return t.Properties(), true
	}
	return nil, false
}

func (p *mlFeatureTablePropertiesR) plainField(name string) (any, bool) {
	switch name {
	case "description":
		return p.Description(), true
	case "mlFeatures":
		return p.MlFeatures(), true
	}
	return nil, false
}

func (f *mlFeatureR) plainString(name string) (string, bool) {
	switch name {
	case "urn":
		return f.Urn(), true
	case "type":
		return f.Type(), true
	case "name":
		return f.Name(), true
	case "featureNamespace":
		return f.FeatureNamespace(), true
	}
	return "", false
}

func (f *mlFeatureR) plainField(name string) (any, bool) {
	if v, ok := f.plainString(name); ok {
		return v, true
	}
	switch name {
	case "description":
		return f.Description(), true
	case "dataType":
		return f.DataType(), true
	case "properties":
		return f.Properties(), true
	}
	return nil, false
}
