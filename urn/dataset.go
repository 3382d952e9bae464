package urn

import (
	"github.com/catalogkit/datahub-go/internal/hooks"
	"github.com/catalogkit/datahub-go/internal/jsonesc"
)

// Dataset is a dataset URN, urn:li:dataset:(urn:li:dataPlatform:<platform>,<name>,<ENV>).
// Build one with [NewDataset] or read one with [ParseDataset]; the zero value is
// empty and its String method returns "".
//
// A Dataset keeps its text: String does not build it again.
type Dataset struct {
	// text is the URN, "" for the zero value. Its parts are read from it:
	// the platform's name runs from datasetPlatformStart to comma1, the
	// name from comma1+1 to comma2, the env from comma2+1 to the closing
	// parenthesis.
	text           string
	comma1, comma2 int32
	// plain reports that every byte of text stands for itself inside a
	// JSON string (see hooks.DatasetText).
	plain bool
}

// datasetPlatformStart is the length of the text before a dataset's
// platform name.
const datasetPlatformStart = len(prefix + TypeDataset + ":(" + prefix + TypeDataPlatform + ":")

// NewDataset returns the dataset URN for platform (bare, such as "hive", or
// a URN such as "urn:li:dataPlatform:hive"), name and env. Reserved
// characters in name and a bare platform are escaped with [Escape]; env is a
// FabricType symbol in any case ("" means "PROD") and is upper-cased.
//
//	NewDataset("hive", "db.t", "") // urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)
func NewDataset(platform, name, env string) (Dataset, error) {
	var p DataPlatform
	var n, e string
	if f := (fastBuild{kind: TypeDataset}); f.platform(&p, platform) && f.part(&n, name) && f.env(&e, env) && f.fits() {
		return newDataset(p.name, n, e), nil
	}
	return buildPlatformNameEnv(TypeDataset, platform, name, env, datasetFrom)
}

// newDataset returns the Dataset of parts that need no escaping and that
// the parser accepts, in one allocation (its text): what datasetFrom makes
// of the URN they form.
func newDataset(platform, name, env string) Dataset {
	text := prefix + TypeDataset + ":(" + platformPrefix + platform + "," + name + "," + env + ")"
	comma1 := datasetPlatformStart + len(platform)
	comma2 := comma1 + 1 + len(name)
	return Dataset{text: text, comma1: int32(comma1), comma2: int32(comma2), plain: jsonesc.Plain(text, 0) == len(text)}
}

// ParseDataset parses s as a dataset URN. The platform must be a
// dataPlatform URN, the name must hold no raw "," "(" or ")", and the env must
// be an upper-case FabricType symbol.
func ParseDataset(s string) (Dataset, error) {
	return parseTyped(s, TypeDataset, datasetFrom)
}

// datasetFrom reads a parsed dataset URN. Its text r.s is
// urn:li:dataset:(<platform URN>,<name>,<env>), exactly what String
// writes: the parts are split from it as they stand, none of them empty,
// and the platform URN is urn:li:dataPlatform:<name> (see platformFrom).
func datasetFrom(r raw) (Dataset, *ParseError) {
	if _, _, _, err := platformNameEnvFrom(r, TypeDataset); err != nil {
		return Dataset{}, err
	}
	comma1 := len(prefix+TypeDataset+":(") + len(r.parts[0])
	comma2 := comma1 + 1 + len(r.parts[1])
	return Dataset{text: r.s, comma1: int32(comma1), comma2: int32(comma2), plain: jsonesc.Plain(r.s, 0) == len(r.s)}, nil
}

// String returns the URN, or "" for the zero value.
func (u Dataset) String() string { return u.text }

// EntityType returns "dataset".
func (u Dataset) EntityType() string { return TypeDataset }

// Platform returns the platform part.
func (u Dataset) Platform() DataPlatform {
	if u.text == "" {
		return DataPlatform{}
	}
	return DataPlatform{name: u.text[datasetPlatformStart:u.comma1]}
}

// Name returns the name part in URN form: reserved characters escaped.
func (u Dataset) Name() string {
	if u.text == "" {
		return ""
	}
	return u.text[u.comma1+1 : u.comma2]
}

// Env returns the environment, an upper-case FabricType symbol such as "PROD".
func (u Dataset) Env() string {
	if u.text == "" {
		return ""
	}
	return u.text[u.comma2+1 : len(u.text)-1]
}

// MarshalText returns the URN as text; the zero value gives empty text.
func (u Dataset) MarshalText() ([]byte, error) { return []byte(u.String()), nil }

// UnmarshalText parses text with [ParseDataset]; empty text gives the zero value.
func (u *Dataset) UnmarshalText(text []byte) error { return unmarshal(u, text, ParseDataset) }

// MLModel is an ML model URN, urn:li:mlModel:(urn:li:dataPlatform:<platform>,<name>,<ENV>).
// Build one with [NewMLModel] or read one with [ParseMLModel]; the zero value is
// empty and its String method returns "".
type MLModel struct {
	platform  DataPlatform
	name, env string
}

// NewMLModel returns the ML model URN for platform (bare, such as "sagemaker", or
// a URN such as "urn:li:dataPlatform:sagemaker"), name and env. Reserved
// characters in name and a bare platform are escaped with [Escape]; env is a
// FabricType symbol in any case ("" means "PROD") and is upper-cased.
//
//	NewMLModel("sagemaker", "churn", "") // urn:li:mlModel:(urn:li:dataPlatform:sagemaker,churn,PROD)
func NewMLModel(platform, name, env string) (MLModel, error) {
	var u MLModel
	if f := (fastBuild{kind: TypeMLModel}); f.platform(&u.platform, platform) && f.part(&u.name, name) && f.env(&u.env, env) && f.fits() {
		return u, nil
	}
	return buildPlatformNameEnv(TypeMLModel, platform, name, env, mlModelFrom)
}

// ParseMLModel parses s as an ML model URN. The platform must be a
// dataPlatform URN, the name must hold no raw "," "(" or ")", and the env must
// be an upper-case FabricType symbol.
func ParseMLModel(s string) (MLModel, error) {
	return parseTyped(s, TypeMLModel, mlModelFrom)
}

func mlModelFrom(r raw) (MLModel, *ParseError) {
	p, name, env, err := platformNameEnvFrom(r, TypeMLModel)
	if err != nil {
		return MLModel{}, err
	}
	return MLModel{platform: p, name: name, env: env}, nil
}

// String returns the URN, or "" for the zero value.
func (u MLModel) String() string {
	if u.name == "" {
		return ""
	}
	return platformNameEnv(TypeMLModel, u.platform, u.name, u.env)
}

// EntityType returns "mlModel".
func (u MLModel) EntityType() string { return TypeMLModel }

// Platform returns the platform part.
func (u MLModel) Platform() DataPlatform { return u.platform }

// Name returns the name part in URN form: reserved characters escaped.
func (u MLModel) Name() string { return u.name }

// Env returns the environment, an upper-case FabricType symbol such as "PROD".
func (u MLModel) Env() string { return u.env }

// MarshalText returns the URN as text; the zero value gives empty text.
func (u MLModel) MarshalText() ([]byte, error) { return []byte(u.String()), nil }

// UnmarshalText parses text with [ParseMLModel]; empty text gives the zero value.
func (u *MLModel) UnmarshalText(text []byte) error { return unmarshal(u, text, ParseMLModel) }

// MLModelGroup is an ML model group URN, urn:li:mlModelGroup:(urn:li:dataPlatform:<platform>,<name>,<ENV>).
// Build one with [NewMLModelGroup] or read one with [ParseMLModelGroup]; the zero value is
// empty and its String method returns "".
type MLModelGroup struct {
	platform  DataPlatform
	name, env string
}

// NewMLModelGroup returns the ML model group URN for platform (bare, such as "sagemaker", or
// a URN such as "urn:li:dataPlatform:sagemaker"), name and env. Reserved
// characters in name and a bare platform are escaped with [Escape]; env is a
// FabricType symbol in any case ("" means "PROD") and is upper-cased.
//
//	NewMLModelGroup("sagemaker", "churn-models", "") // urn:li:mlModelGroup:(urn:li:dataPlatform:sagemaker,churn-models,PROD)
func NewMLModelGroup(platform, name, env string) (MLModelGroup, error) {
	var u MLModelGroup
	if f := (fastBuild{kind: TypeMLModelGroup}); f.platform(&u.platform, platform) && f.part(&u.name, name) && f.env(&u.env, env) && f.fits() {
		return u, nil
	}
	return buildPlatformNameEnv(TypeMLModelGroup, platform, name, env, mlModelGroupFrom)
}

// ParseMLModelGroup parses s as an ML model group URN. The platform must be a
// dataPlatform URN, the name must hold no raw "," "(" or ")", and the env must
// be an upper-case FabricType symbol.
func ParseMLModelGroup(s string) (MLModelGroup, error) {
	return parseTyped(s, TypeMLModelGroup, mlModelGroupFrom)
}

func mlModelGroupFrom(r raw) (MLModelGroup, *ParseError) {
	p, name, env, err := platformNameEnvFrom(r, TypeMLModelGroup)
	if err != nil {
		return MLModelGroup{}, err
	}
	return MLModelGroup{platform: p, name: name, env: env}, nil
}

// String returns the URN, or "" for the zero value.
func (u MLModelGroup) String() string {
	if u.name == "" {
		return ""
	}
	return platformNameEnv(TypeMLModelGroup, u.platform, u.name, u.env)
}

// EntityType returns "mlModelGroup".
func (u MLModelGroup) EntityType() string { return TypeMLModelGroup }

// Platform returns the platform part.
func (u MLModelGroup) Platform() DataPlatform { return u.platform }

// Name returns the name part in URN form: reserved characters escaped.
func (u MLModelGroup) Name() string { return u.name }

// Env returns the environment, an upper-case FabricType symbol such as "PROD".
func (u MLModelGroup) Env() string { return u.env }

// MarshalText returns the URN as text; the zero value gives empty text.
func (u MLModelGroup) MarshalText() ([]byte, error) { return []byte(u.String()), nil }

// UnmarshalText parses text with [ParseMLModelGroup]; empty text gives the zero value.
func (u *MLModelGroup) UnmarshalText(text []byte) error { return unmarshal(u, text, ParseMLModelGroup) }

// platformNameEnv returns the URN urn:li:<typ>:(<platform>,<name>,<env>)
// in one allocation: the platform's URN is not built on its own.
func platformNameEnv(typ string, platform DataPlatform, name, env string) string {
	if platform.name == "" {
		return prefix + typ + ":(," + name + "," + env + ")"
	}
	return prefix + typ + ":(" + prefix + TypeDataPlatform + ":" + platform.name + "," + name + "," + env + ")"
}

func init() { hooks.DatasetText = datasetText }

// datasetText is hooks.DatasetText: the text a Dataset keeps, and
// whether it is plain, computed once when the Dataset was made.
func datasetText(u any) (text string, plain, ok bool) {
	d, ok := u.(Dataset)
	if !ok || d.text == "" {
		return "", false, false
	}
	return d.text, d.plain, true
}
