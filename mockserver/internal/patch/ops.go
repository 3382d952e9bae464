package patch

import (
	"strconv"
	"strings"
)

// populate creates the missing objects on each operation's path before any
// operation runs, as DataHub's TemplateUtil.populateTopLevelKeys does: for
// every op all members but the last, for remove all of them (so that
// removing a missing member is a no-op, not an error). It stops at a
// member that is not an object. DataHub splits the raw path on "/" without
// unescaping ~0 and ~1, so there an escaped key creates a stray member;
// here the tokens are unescaped first.
func populate(root any, ops []operation) {
	for _, op := range ops {
		end := len(op.tokens) - 1
		if op.op == "remove" {
			end = len(op.tokens)
		}
		parent := root
		for i := 0; i < end; i++ {
			o, ok := parent.(*object)
			if !ok {
				break
			}
			next, ok := o.get(op.tokens[i])
			if !ok {
				next = newObject()
				o.set(op.tokens[i], next)
			}
			parent = next
		}
	}
}

// applyOps runs the operations in order on root and returns the new root.
// The first failure stops it; the caller drops the half-patched tree.
func applyOps(root any, ops []operation) (any, int, error) {
	grown := 0
	for i, op := range ops {
		var err error
		switch op.op {
		case "add":
			root, err = add(root, op.tokens, clone(op.value), op.path)
		case "remove":
			root, _, err = remove(root, op.tokens, op.path)
		case "replace":
			if _, err = get(root, op.tokens, op.path); err == nil {
				if len(op.tokens) == 0 {
					root = clone(op.value)
				} else {
					root, err = setExisting(root, op.tokens, clone(op.value), op.path)
				}
			}
		case "move":
			if isProperPrefix(op.fromToks, op.tokens) {
				err = failf(ErrBadPath, "cannot move "+jsonQuote(op.from)+" into itself")
				break
			}
			var v any
			if root, v, err = remove(root, op.fromToks, op.from); err == nil {
				root, err = add(root, op.tokens, v, op.path)
			}
		case "copy":
			var v any
			if v, err = get(root, op.fromToks, op.from); err == nil {
				if grown += size(v, maxCopied-grown); grown > maxCopied {
					err = failf(ErrBadPatch, "the copies grow the aspect by more than "+strconv.Itoa(maxCopied)+" values")
					break
				}
				root, err = add(root, op.tokens, clone(v), op.path)
			}
		case "test":
			var v any
			if v, err = get(root, op.tokens, op.path); err == nil && !equal(v, op.value) {
				err = failf(ErrTestFailed, "the value at "+jsonQuote(op.path)+" is "+string(encode(v))+", not "+string(encode(op.value)))
			}
		}
		if err != nil {
			return nil, i, err
		}
	}
	return root, -1, nil
}

// maxCopied bounds the values copy operations may create, so that a patch
// copying a value into itself over and over cannot grow without bound.
const maxCopied = 1 << 20

// size counts the values in v, stopping once it passes limit.
func size(v any, limit int) int {
	n := 1
	switch t := v.(type) {
	case *object:
		for _, e := range t.vals {
			if n > limit {
				break
			}
			n += size(e, limit-n)
		}
	case *array:
		for _, e := range t.elems {
			if n > limit {
				break
			}
			n += size(e, limit-n)
		}
	}
	return n
}

func isProperPrefix(a, b []string) bool {
	if len(a) >= len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// get returns the value at tokens.
func get(root any, tokens []string, path string) (any, error) {
	cur := root
	for i, tok := range tokens {
		switch c := cur.(type) {
		case *object:
			v, ok := c.get(tok)
			if !ok {
				return nil, failf(ErrBadPath, "no member "+jsonQuote(tok)+" at "+jsonQuote(pointerOf(tokens[:i])))
			}
			cur = v
		case *array:
			idx, err := index(tok, len(c.elems), false, path)
			if err != nil {
				return nil, err
			}
			cur = c.elems[idx]
		default:
			return nil, failf(ErrBadPath, jsonQuote(pointerOf(tokens[:i]))+" is not an object or array")
		}
	}
	return cur, nil
}

// parentOf returns the container holding the last token.
func parentOf(root any, tokens []string, path string) (any, error) {
	p, err := get(root, tokens[:len(tokens)-1], path)
	if err != nil {
		return nil, err
	}
	switch p.(type) {
	case *object, *array:
		return p, nil
	}
	return nil, failf(ErrBadPath, "the parent of "+jsonQuote(path)+" is not an object or array")
}

// add is RFC 6902 add: set an object member, insert into an array (or
// append at "-"), or replace the whole document.
func add(root any, tokens []string, v any, path string) (any, error) {
	if len(tokens) == 0 {
		return v, nil
	}
	p, err := parentOf(root, tokens, path)
	if err != nil {
		return nil, err
	}
	last := tokens[len(tokens)-1]
	switch c := p.(type) {
	case *object:
		c.set(last, v)
	case *array:
		idx, err := index(last, len(c.elems), true, path)
		if err != nil {
			return nil, err
		}
		c.elems = append(c.elems, nil)
		copy(c.elems[idx+1:], c.elems[idx:])
		c.elems[idx] = v
	}
	return root, nil
}

// remove is RFC 6902 remove; it returns the removed value.
func remove(root any, tokens []string, path string) (any, any, error) {
	if len(tokens) == 0 {
		return nil, nil, failf(ErrBadPath, "cannot remove the whole aspect")
	}
	p, err := parentOf(root, tokens, path)
	if err != nil {
		return nil, nil, err
	}
	last := tokens[len(tokens)-1]
	switch c := p.(type) {
	case *object:
		v, ok := c.get(last)
		if !ok {
			return nil, nil, failf(ErrBadPath, "no member "+jsonQuote(last)+" to remove")
		}
		c.del(last)
		return root, v, nil
	case *array:
		idx, err := index(last, len(c.elems), false, path)
		if err != nil {
			return nil, nil, err
		}
		v := c.elems[idx]
		c.elems = append(c.elems[:idx:idx], c.elems[idx+1:]...)
		return root, v, nil
	}
	return root, nil, nil
}

// setExisting replaces the existing value at tokens.
func setExisting(root any, tokens []string, v any, path string) (any, error) {
	p, err := parentOf(root, tokens, path)
	if err != nil {
		return nil, err
	}
	last := tokens[len(tokens)-1]
	switch c := p.(type) {
	case *object:
		c.set(last, v)
	case *array:
		idx, err := index(last, len(c.elems), false, path)
		if err != nil {
			return nil, err
		}
		c.elems[idx] = v
	}
	return root, nil
}

// index parses an array index token: decimal without leading zeros, below
// n (at most n when adding, where "-" means n).
func index(tok string, n int, adding bool, path string) (int, error) {
	if adding && tok == "-" {
		return n, nil
	}
	bad := func(why string) (int, error) {
		return 0, failf(ErrBadPath, "array index "+jsonQuote(tok)+" in "+jsonQuote(path)+" "+why)
	}
	if tok == "" || (len(tok) > 1 && tok[0] == '0') || strings.TrimLeft(tok, "0123456789") != "" {
		return bad("is not a number")
	}
	i, err := strconv.Atoi(tok)
	if err != nil {
		return bad("is out of range")
	}
	if i > n || (!adding && i == n) {
		return bad("is out of range (length " + strconv.Itoa(n) + ")")
	}
	return i, nil
}

// pointerOf joins tokens back into a JSON pointer.
func pointerOf(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(Escape(t))
	}
	return b.String()
}
