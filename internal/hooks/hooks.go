// Package hooks lets the SDK's packages hand each other what one of them
// knows of its own values, without a public API for it. Each variable is
// set by the package its doc names when that package is initialized, so
// any package that imports that one may call it.
package hooks

// DatasetText returns the text of u when u is a urn.Dataset that is not
// empty, and reports whether every byte of that text stands for itself
// inside a JSON string (ASCII from the space up, other than the quote and
// the backslash), so that it may be written there as it is. ok is false
// for any other u. Package urn sets it; the answer was computed once,
// when the Dataset was made.
var DatasetText func(u any) (text string, plain, ok bool)

// OwnAspect reports whether a's type is the one package aspects declares
// for the aspect named name (a struct or a pointer to one), and that type
// appends its own JSON, plain and in the escaped form of
// aspects.AppendJSONString, without reflection. name is then plain JSON
// string content (an identifier of DataHub's registry). A type of another
// package that embeds one is not. Package aspects sets it.
var OwnAspect func(a any, name string) bool
