package graphql

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"
	"github.com/vektah/gqlparser/v2/validator/rules"
)

// prepared is a document parsed, checked against the limits and
// validated: the document, or the errors that refuse it.
type prepared struct {
	doc  *ast.QueryDocument
	errs []*queryError
	// directives is whether the document has @skip or @include (which make
	// the fields collected depend on the variables); collected keeps the
	// fields collected per object type otherwise (collectKey → *collectedFields).
	directives bool
	collected  sync.Map
	// varDefs keeps operationVariables of the document by operation name
	// (string → *opVarDefs).
	varDefs sync.Map
	// roots keeps the root field of each operation (see rootSets).
	roots sync.Map
}

// rootSets is the one field whose selection set is op's, as the executor
// collects the root's fields from it: one per operation of the document,
// so that the fields collected from it are kept as any field's are.
func (p *prepared) rootSets(op *ast.OperationDefinition) []*ast.Field {
	if v, ok := p.roots.Load(op); ok {
		return v.([]*ast.Field)
	}
	v, _ := p.roots.LoadOrStore(op, []*ast.Field{{SelectionSet: op.SelectionSet}})
	return v.([]*ast.Field)
}

// opVarDefs is what operationVariables gives for one operation.
type opVarDefs struct {
	defs []varDef
	ok   bool
}

// operationVariables is operationVariables(query, op) of the document p
// was prepared from (query), read once per operation name.
func (p *prepared) operationVariables(query, op string) ([]varDef, bool) {
	if v, ok := p.varDefs.Load(op); ok {
		d := v.(*opVarDefs)
		return d.defs, d.ok
	}
	defs, ok := operationVariables(query, op)
	p.varDefs.Store(op, &opVarDefs{defs, ok})
	return defs, ok
}

// docCache keeps prepared documents by their text, so that a document sent
// again is not parsed and validated again (a validated document is only
// read by the executor). It holds at most maxDocBytes of text.
type docCache struct {
	mu    sync.RWMutex
	m     map[string]*prepared
	bytes int
}

const maxDocBytes = 8 << 20

func (c *docCache) get(q string) *prepared {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.m[q]
}

func (c *docCache) put(q string, p *prepared) {
	if len(q) > maxDocBytes/16 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || c.bytes+len(q) > maxDocBytes {
		c.m, c.bytes = map[string]*prepared{}, 0
	}
	if _, had := c.m[q]; !had {
		c.m[q] = p
		c.bytes += len(q)
	}
}

// prepare parses and validates query, refusing it first when it is beyond
// a limit (see MaxDepth).
func (h *Handler) prepare(query string) *prepared {
	if p := h.docs.get(query); p != nil {
		return p
	}
	p := h.prepareNew(query)
	h.docs.put(query, p)
	return p
}

func (h *Handler) prepareNew(query string) *prepared {
	doc, err := parser.ParseQuery(&ast.Source{Name: "query", Input: query})
	if err != nil {
		return &prepared{errs: fromGQLErrors("InvalidSyntax", err)}
	}
	if e := checkLimits(doc); e != nil {
		return &prepared{errs: []*queryError{e}}
	}
	if errs := validator.ValidateWithRules(h.schema, doc, validationRules); len(errs) > 0 {
		return &prepared{errs: fromGQLErrors("ValidationError", errs)}
	}
	return &prepared{doc: doc, directives: strings.Contains(query, "@skip") || strings.Contains(query, "@include")}
}

// validationRules are the specification's rules (graphql-js's, whose texts
// gqlparser's messages keep).
var validationRules = rules.NewDefaultRules()

// fromGQLErrors maps gqlparser's errors to the answer's, of classification
// class.
func fromGQLErrors(class string, err error) []*queryError {
	var list gqlerror.List
	var one *gqlerror.Error
	switch {
	case errors.As(err, &list):
	case errors.As(err, &one):
		list = gqlerror.List{one}
	default:
		return []*queryError{{Message: err.Error(), Extensions: map[string]any{"classification": class}}}
	}
	out := make([]*queryError, 0, len(list))
	for _, e := range list {
		qe := &queryError{Message: e.Message, Extensions: map[string]any{"classification": class}}
		for _, l := range e.Locations {
			qe.Locations = append(qe.Locations, location{l.Line, l.Column})
		}
		out = append(out, qe)
	}
	return out
}

// checkLimits walks the operations of doc, fragments expanded, and returns
// the error of the first limit it breaks: the pairs of same-named fields
// the overlap validation would compare (MaxOverlapPairs), the fields
// (MaxComplexity), the depth (MaxDepth). The walk stops at the first limit
// reached, so that its cost is bounded whatever the document.
func checkLimits(doc *ast.QueryDocument) *queryError {
	w := limitWalk{doc: doc, onStack: map[string]bool{}}
	for _, op := range doc.Operations {
		w.set(op.SelectionSet, 1)
		if w.err != nil {
			return w.err
		}
	}
	return nil
}

type limitWalk struct {
	doc     *ast.QueryDocument
	fields  int
	onStack map[string]bool
	err     *queryError
}

func aborted(msg string, pos *ast.Position) *queryError {
	e := &queryError{Message: msg, Extensions: map[string]any{"classification": "ExecutionAborted"}}
	if pos != nil {
		e.Locations = []location{{pos.Line, pos.Column}}
	}
	return e
}

// set walks one selection set at depth.
func (w *limitWalk) set(set ast.SelectionSet, depth int) {
	// The fields of this set (fragments flattened), counted by name.
	counts := map[string]int{}
	pairs := 0
	var flat []*ast.Field
	var gather func(ast.SelectionSet)
	gather = func(s ast.SelectionSet) {
		for _, sel := range s {
			if w.err != nil {
				return
			}
			switch sel := sel.(type) {
			case *ast.Field:
				k := sel.Alias
				if k == "" {
					k = sel.Name
				}
				pairs += counts[k]
				counts[k]++
				if pairs > MaxOverlapPairs {
					w.err = aborted(fmt.Sprintf(msgOverlapLimit, MaxOverlapPairs), sel.Position)
					return
				}
				flat = append(flat, sel)
			case *ast.InlineFragment:
				gather(sel.SelectionSet)
			case *ast.FragmentSpread:
				fr := w.doc.Fragments.ForName(sel.Name)
				if fr == nil || w.onStack[sel.Name] {
					continue
				}
				w.onStack[sel.Name] = true
				gather(fr.SelectionSet)
				delete(w.onStack, sel.Name)
			}
		}
	}
	gather(set)
	if w.err != nil {
		return
	}
	for _, f := range flat {
		w.fields++
		if w.fields > MaxComplexity {
			w.err = aborted(fmt.Sprintf(msgComplexityLimit, MaxComplexity), f.Position)
			return
		}
		if len(f.SelectionSet) > 0 {
			if depth+1 > MaxDepth {
				w.err = aborted(fmt.Sprintf(msgDepthLimit, MaxDepth), f.Position)
				return
			}
			w.set(f.SelectionSet, depth+1)
			if w.err != nil {
				return
			}
		}
	}
}
