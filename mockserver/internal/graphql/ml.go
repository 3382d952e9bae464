package graphql

import "context"

// --- MLFeature (MLFeatureMapper) ---

type mlFeatureR struct{ *entity }

func (f *mlFeatureR) Name() string             { return f.key.Name }
func (f *mlFeatureR) FeatureNamespace() string { return f.key.FeatureNamespace }

func (f *mlFeatureR) props() (*mlFeaturePropertiesJSON, error) {
	var p mlFeaturePropertiesJSON
	if ok, err := f.aspect("mlFeatureProperties", &p); !ok || err != nil {
		return nil, err
	}
	return &p, nil
}

func (f *mlFeatureR) Description() (*string, error) {
	p, err := f.props()
	if p == nil || err != nil {
		return nil, err
	}
	return p.Description, nil
}

func (f *mlFeatureR) DataType() (*string, error) {
	p, err := f.props()
	if p == nil || err != nil {
		return nil, err
	}
	return p.DataType, nil
}

func (f *mlFeatureR) Properties() (*mlFeaturePropertiesR, error) {
	p, err := f.props()
	if p == nil || err != nil {
		return nil, err
	}
	return &mlFeaturePropertiesR{p: p, e: f.entity}, nil
}

func (f *mlFeatureR) FeatureProperties() (*mlFeaturePropertiesR, error) { return f.Properties() }

func (f *mlFeatureR) EditableProperties() (*editableR, error) {
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
func (p *mlFeaturePropertiesR) Sources(ctx context.Context) (*[]*datasetR, error) {
	if p.p.Sources == nil {
		return nil, nil
	}
	out := make([]*datasetR, 0, len(*p.p.Sources))
	for _, u := range *p.p.Sources {
		e, err := p.e.r.load(ctx, u, "dataset")
		if err != nil {
			return nil, err
		}
		out = append(out, &datasetR{e})
	}
	return &out, nil
}

// --- MLFeatureTable (MLFeatureTableMapper) ---

type mlFeatureTableR struct{ *entity }

func (t *mlFeatureTableR) Name() string             { return t.key.Name }
func (t *mlFeatureTableR) Platform() *dataPlatformR { return platformOf(t.key.Platform) }

func (t *mlFeatureTableR) props() (*mlFeatureTablePropertiesJSON, error) {
	var p mlFeatureTablePropertiesJSON
	if ok, err := t.aspect("mlFeatureTableProperties", &p); !ok || err != nil {
		return nil, err
	}
	return &p, nil
}

func (t *mlFeatureTableR) Description() (*string, error) {
	p, err := t.props()
	if p == nil || err != nil {
		return nil, err
	}
	return p.Description, nil
}

func (t *mlFeatureTableR) Properties() (*mlFeatureTablePropertiesR, error) {
	p, err := t.props()
	if p == nil || err != nil {
		return nil, err
	}
	return &mlFeatureTablePropertiesR{p: p, e: t.entity}, nil
}

func (t *mlFeatureTableR) FeatureTableProperties() (*mlFeatureTablePropertiesR, error) {
	return t.Properties()
}

func (t *mlFeatureTableR) EditableProperties() (*editableR, error) {
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
func (p *mlFeatureTablePropertiesR) MlFeatures(ctx context.Context) (*[]*mlFeatureR, error) {
	if p.p.MLFeatures == nil {
		return nil, nil
	}
	out := make([]*mlFeatureR, 0, len(*p.p.MLFeatures))
	for _, u := range *p.p.MLFeatures {
		e, err := p.e.r.load(ctx, u, "mlFeature")
		if err != nil {
			return nil, err
		}
		out = append(out, &mlFeatureR{e})
	}
	return &out, nil
}

// --- MLModel (MLModelMapper, MLModelPropertiesMapper) ---

type mlModelR struct{ *entity }

func (m *mlModelR) Name() string             { return m.key.Name }
func (m *mlModelR) Platform() *dataPlatformR { return platformOf(m.key.Platform) }
func (m *mlModelR) Origin() string           { return m.key.Origin }

func (m *mlModelR) props() (*mlModelPropertiesJSON, error) {
	var p mlModelPropertiesJSON
	if ok, err := m.aspect("mlModelProperties", &p); !ok || err != nil {
		return nil, err
	}
	return &p, nil
}

func (m *mlModelR) Description() (*string, error) {
	p, err := m.props()
	if p == nil || err != nil {
		return nil, err
	}
	return p.Description, nil
}

func (m *mlModelR) Properties() (*mlModelPropertiesR, error) {
	p, err := m.props()
	if p == nil || err != nil {
		return nil, err
	}
	return &mlModelPropertiesR{p: p, m: m}, nil
}

func (m *mlModelR) EditableProperties() (*editableR, error) {
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
func (p *mlModelPropertiesR) Groups(ctx context.Context) (*[]*mlModelGroupR, error) {
	out := []*mlModelGroupR{}
	if p.p.Groups != nil {
		for _, u := range *p.p.Groups {
			e, err := p.m.r.load(ctx, u, "mlModelGroup")
			if err != nil {
				return nil, err
			}
			out = append(out, &mlModelGroupR{e})
		}
	}
	return &out, nil
}

// --- MLModelGroup (MLModelGroupMapper) ---

type mlModelGroupR struct{ *entity }

func (g *mlModelGroupR) Name() string             { return g.key.Name }
func (g *mlModelGroupR) Platform() *dataPlatformR { return platformOf(g.key.Platform) }
func (g *mlModelGroupR) Origin() string           { return g.key.Origin }

func (g *mlModelGroupR) props() (*mlModelGroupPropertiesJSON, error) {
	var p mlModelGroupPropertiesJSON
	if ok, err := g.aspect("mlModelGroupProperties", &p); !ok || err != nil {
		return nil, err
	}
	return &p, nil
}

func (g *mlModelGroupR) Description() (*string, error) {
	p, err := g.props()
	if p == nil || err != nil {
		return nil, err
	}
	return p.Description, nil
}

func (g *mlModelGroupR) Properties() (*mlModelGroupPropertiesR, error) {
	p, err := g.props()
	if p == nil || err != nil {
		return nil, err
	}
	return &mlModelGroupPropertiesR{p: p, g: g}, nil
}

func (g *mlModelGroupR) EditableProperties() (*editableR, error) {
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
