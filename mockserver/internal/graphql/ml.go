package graphql

// --- MLFeature (MLFeatureMapper) ---

type mlFeatureR struct{ *entity }

func (f *mlFeatureR) Name() string             { return f.key.Name }
func (f *mlFeatureR) FeatureNamespace() string { return f.key.FeatureNamespace }

func (x *mlFeatureR) props() *mlFeaturePropertiesJSON {
	p, _ := x.entity.props.(*mlFeaturePropertiesJSON)
	return p
}

func (f *mlFeatureR) Description() *string {
	if p := f.props(); p != nil {
		return p.Description
	}
	return nil
}

func (f *mlFeatureR) DataType() *string {
	if p := f.props(); p != nil {
		return p.DataType
	}
	return nil
}

func (f *mlFeatureR) Properties() *mlFeaturePropertiesR {
	p := f.props()
	if p == nil {
		return nil
	}
	return &mlFeaturePropertiesR{p: p, e: f.entity}
}

func (f *mlFeatureR) FeatureProperties() *mlFeaturePropertiesR { return f.Properties() }

func (f *mlFeatureR) EditableProperties() *editableR {
	return f.editableDescription("editableMlFeatureProperties")
}

type mlFeaturePropertiesR struct {
	p *mlFeaturePropertiesJSON
	e *entity
}

func (p *mlFeaturePropertiesR) Description() *string  { return p.p.Description }
func (p *mlFeaturePropertiesR) DataType() *string     { return p.p.DataType }
func (p *mlFeaturePropertiesR) Version() *versionTagR { return versionTag(p.p.Version) }
func (p *mlFeaturePropertiesR) CustomProperties() *[]*customPropertyR {
	return customProperties(p.p.CustomProperties, p.e.urn)
}

// Sources are the source datasets, each loaded as Query.dataset would.
func (p *mlFeaturePropertiesR) Sources() *[]*datasetR {
	if p.p.Sources == nil {
		return nil
	}
	out := make([]*datasetR, 0, len(*p.p.Sources))
	for _, u := range *p.p.Sources {
		out = append(out, &datasetR{must(p.e.r.load(p.e.ctx, u, "dataset"))})
	}
	return &out
}

// --- MLFeatureTable (MLFeatureTableMapper) ---

type mlFeatureTableR struct{ *entity }

func (t *mlFeatureTableR) Name() string             { return t.key.Name }
func (t *mlFeatureTableR) Platform() *dataPlatformR { return platformOf(t.key.Platform) }

func (x *mlFeatureTableR) props() *mlFeatureTablePropertiesJSON {
	p, _ := x.entity.props.(*mlFeatureTablePropertiesJSON)
	return p
}

func (t *mlFeatureTableR) Description() *string {
	if p := t.props(); p != nil {
		return p.Description
	}
	return nil
}

func (t *mlFeatureTableR) Properties() *mlFeatureTablePropertiesR {
	p := t.props()
	if p == nil {
		return nil
	}
	return &mlFeatureTablePropertiesR{p: p, e: t.entity}
}

func (t *mlFeatureTableR) FeatureTableProperties() *mlFeatureTablePropertiesR { return t.Properties() }

func (t *mlFeatureTableR) EditableProperties() *editableR {
	return t.editableDescription("editableMlFeatureTableProperties")
}

type mlFeatureTablePropertiesR struct {
	p *mlFeatureTablePropertiesJSON
	e *entity
}

func (p *mlFeatureTablePropertiesR) Description() *string { return p.p.Description }
func (p *mlFeatureTablePropertiesR) CustomProperties() *[]*customPropertyR {
	return customProperties(p.p.CustomProperties, p.e.urn)
}

// MlFeatures are the table's features, each loaded as Query.mlFeature would.
func (p *mlFeatureTablePropertiesR) MlFeatures() *[]*mlFeatureR {
	if p.p.MLFeatures == nil {
		return nil
	}
	urns := *p.p.MLFeatures
	// The features, their wrappers and the list in a few allocations.
	es := make([]entity, len(urns))
	rs := make([]mlFeatureR, len(urns))
	out := make([]*mlFeatureR, len(urns))
	for i, u := range urns {
		must0(p.e.r.loadInto(&es[i], p.e.ctx, u, "mlFeature"))
		rs[i].entity = &es[i]
		out[i] = &rs[i]
	}
	return &out
}

// --- MLModel (MLModelMapper, MLModelPropertiesMapper) ---

type mlModelR struct{ *entity }

func (m *mlModelR) Name() string             { return m.key.Name }
func (m *mlModelR) Platform() *dataPlatformR { return platformOf(m.key.Platform) }
func (m *mlModelR) Origin() string           { return m.key.Origin }

func (x *mlModelR) props() *mlModelPropertiesJSON {
	p, _ := x.entity.props.(*mlModelPropertiesJSON)
	return p
}

func (m *mlModelR) Description() *string {
	if p := m.props(); p != nil {
		return p.Description
	}
	return nil
}

func (m *mlModelR) Properties() *mlModelPropertiesR {
	p := m.props()
	if p == nil {
		return nil
	}
	return &mlModelPropertiesR{p: p, m: m}
}

func (m *mlModelR) EditableProperties() *editableR {
	return m.editableDescription("editableMlModelProperties")
}

type mlModelPropertiesR struct {
	p *mlModelPropertiesJSON
	m *mlModelR
}

// Name is properties.name, or the URN's name when it has none.
func (p *mlModelPropertiesR) Name() *string {
	if p.p.Name != nil {
		return p.p.Name
	}
	return &p.m.key.Name
}
func (p *mlModelPropertiesR) Description() *string { return p.p.Description }
func (p *mlModelPropertiesR) Version() *string {
	if p.p.Version == nil {
		return nil
	}
	return p.p.Version.VersionTag
}
func (p *mlModelPropertiesR) Type() *string         { return p.p.Type }
func (p *mlModelPropertiesR) MlFeatures() *[]string { return p.p.MLFeatures }
func (p *mlModelPropertiesR) Tags() *[]string       { return p.p.Tags }
func (p *mlModelPropertiesR) ExternalUrl() *string  { return p.p.ExternalURL }
func (p *mlModelPropertiesR) Created() *auditStampR { return auditStampPtr(p.p.Created) }
func (p *mlModelPropertiesR) LastModified() *auditStampR {
	return auditStampPtr(p.p.LastModified)
}
func (p *mlModelPropertiesR) CustomProperties() *[]*customPropertyR {
	return customProperties(p.p.CustomProperties, p.m.urn)
}

// Groups are the model's groups, [] when it has none (DataHub's mapper
// always sets the list).
func (p *mlModelPropertiesR) Groups() *[]*mlModelGroupR {
	out := []*mlModelGroupR{}
	if p.p.Groups != nil {
		for _, u := range *p.p.Groups {
			out = append(out, &mlModelGroupR{must(p.m.r.load(p.m.ctx, u, "mlModelGroup"))})
		}
	}
	return &out
}

// --- MLModelGroup (MLModelGroupMapper) ---

type mlModelGroupR struct{ *entity }

func (g *mlModelGroupR) Name() string             { return g.key.Name }
func (g *mlModelGroupR) Platform() *dataPlatformR { return platformOf(g.key.Platform) }
func (g *mlModelGroupR) Origin() string           { return g.key.Origin }

func (x *mlModelGroupR) props() *mlModelGroupPropertiesJSON {
	p, _ := x.entity.props.(*mlModelGroupPropertiesJSON)
	return p
}

func (g *mlModelGroupR) Description() *string {
	if p := g.props(); p != nil {
		return p.Description
	}
	return nil
}

func (g *mlModelGroupR) Properties() *mlModelGroupPropertiesR {
	p := g.props()
	if p == nil {
		return nil
	}
	return &mlModelGroupPropertiesR{p: p, g: g}
}

func (g *mlModelGroupR) EditableProperties() *editableR {
	return g.editableDescription("editableMlModelGroupProperties")
}

type mlModelGroupPropertiesR struct {
	p *mlModelGroupPropertiesJSON
	g *mlModelGroupR
}

// Name is properties.name, or the URN's name when it has none.
func (p *mlModelGroupPropertiesR) Name() *string {
	if p.p.Name != nil {
		return p.p.Name
	}
	return &p.g.key.Name
}
func (p *mlModelGroupPropertiesR) Description() *string  { return p.p.Description }
func (p *mlModelGroupPropertiesR) Created() *auditStampR { return auditStampPtr(p.p.Created) }
func (p *mlModelGroupPropertiesR) LastModified() *auditStampR {
	return auditStampPtr(p.p.LastModified)
}
func (p *mlModelGroupPropertiesR) Version() *versionTagR { return versionTag(p.p.Version) }
func (p *mlModelGroupPropertiesR) ExternalUrl() *string  { return p.p.ExternalURL }
func (p *mlModelGroupPropertiesR) CustomProperties() *[]*customPropertyR {
	return customProperties(p.p.CustomProperties, p.g.urn)
}
