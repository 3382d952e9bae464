package gms

import (
	"context"
	"net/url"
	"strings"
)

// DataHub's texts of the link mutations (LinkUtils).
const (
	MsgLinkExists          = "The link '%s' with label '%s' already exists"
	MsgLinkMissing         = "Failed to update the link '%s' with label '%s'. The link does not exist"
	MsgLinkNotURL          = "Failed to change institutional memory for resource %s. Expected a url."
	MsgLinkScheme          = "Failed to change institutional memory for resource %s. URL scheme '%s' is not allowed."
	MsgLinkInvalidURL      = "Failed to change institutional memory for resource %s. Expected a valid URL."
	MsgLinkResourceMissing = "Failed to change institutional memory for resource %s. Resource does not exist."
)

// LinkOp is what [Core.ChangeLink] does.
type LinkOp int

// The link operations.
const (
	// AddLink appends a link; one with the same URL and label is refused.
	AddLink LinkOp = iota + 1
	// RemoveLink removes the links of the URL (and label, when given).
	RemoveLink
	// UpdateLink replaces the link of (CurrentURL, CurrentLabel).
	UpdateLink
	// UpsertLink updates the link of the same URL and label, else adds it.
	UpsertLink
)

// LinkChange is one of DataHub's addLink, removeLink, updateLink and
// upsertLink.
type LinkChange struct {
	Op          LinkOp
	ResourceURN string
	URL         string
	// Label is the link's label (its description); nil only for a remove
	// by URL alone.
	Label *string
	// CurrentURL and CurrentLabel name the link an UpdateLink replaces.
	CurrentURL, CurrentLabel string
	// ShowInAssetPreview is the link's settings (nil: no settings).
	ShowInAssetPreview *bool
}

// allowedSchemes are the URL schemes a link may have.
var allowedSchemes = map[string]bool{"http": true, "https": true, "ftp": true, "mailto": true}

// validateLinkURL is DataHub's LinkUtils.validateUrl.
func validateLinkURL(raw, resource string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return errorf(BadArgument, MsgLinkInvalidURL, resource)
	}
	if u.Scheme == "" || !allowedSchemes[strings.ToLower(u.Scheme)] {
		scheme := "null"
		if u.Scheme != "" {
			scheme = u.Scheme
		}
		return errorf(BadArgument, MsgLinkScheme, resource, scheme)
	}
	return nil
}

// ChangeLink changes a resource's institutionalMemory as DataHub's link
// mutations do: the URLs must be http, https, ftp or mailto URLs and the
// resource must exist (BadArgument with DataHub's texts); then one
// read-modify-write with the UI's systemMetadata. A new link gets a create
// stamp, an updated one keeps its create stamp and gets an update stamp;
// two links of the same URL and label are refused.
func (c *Core) ChangeLink(ctx context.Context, ch LinkChange) error {
	if err := checkURNs(ch.ResourceURN); err != nil {
		return err
	}
	if ch.Op == UpdateLink {
		if err := validateLinkURL(ch.CurrentURL, ch.ResourceURN); err != nil {
			return err
		}
	}
	if err := validateLinkURL(ch.URL, ch.ResourceURN); err != nil {
		return err
	}
	if err := c.mustExist(ctx, ch.ResourceURN, errorf(BadArgument, MsgLinkResourceMissing, ch.ResourceURN)); err != nil {
		return err
	}
	label := ""
	if ch.Label != nil {
		label = *ch.Label
	}
	missing := func(u string) *Error { return errorf(BadArgument, MsgLinkResourceMissing, u) }
	return c.edit(ctx, ch.ResourceURN, "institutionalMemory", missing, func(obj map[string]any) error {
		elems := list(obj, "elements")
		stamp := c.stamp(ctx)
		same := func(it any, u, l string) bool {
			m, _ := it.(map[string]any)
			return strMember(m, "url") == u && strMember(m, "description") == l
		}
		find := func(els []any, u, l string) int {
			for i, it := range els {
				if same(it, u, l) {
					return i
				}
			}
			return -1
		}
		newLink := func() map[string]any {
			m := map[string]any{"url": ch.URL, "description": label, "createStamp": stamp}
			if ch.ShowInAssetPreview != nil {
				m["settings"] = map[string]any{"showInAssetPreview": *ch.ShowInAssetPreview}
			}
			return m
		}
		update := func(curURL, curLabel string) error {
			i := find(elems, curURL, curLabel)
			if i < 0 {
				return errorf(BadArgument, MsgLinkMissing, curURL, curLabel)
			}
			others := append(append([]any{}, elems[:i]...), elems[i+1:]...)
			if find(others, ch.URL, label) >= 0 {
				return errorf(BadArgument, MsgLinkExists, ch.URL, label)
			}
			old, _ := elems[i].(map[string]any)
			m := newLink()
			m["createStamp"] = old["createStamp"]
			m["updateStamp"] = stamp
			elems[i] = m
			return nil
		}
		switch ch.Op {
		case AddLink:
			if find(elems, ch.URL, label) >= 0 {
				return errorf(BadArgument, MsgLinkExists, ch.URL, label)
			}
			elems = append(elems, newLink())
		case RemoveLink:
			out := elems[:0:0]
			for _, it := range elems {
				m, _ := it.(map[string]any)
				if strMember(m, "url") == ch.URL && (ch.Label == nil || strMember(m, "description") == label) {
					continue
				}
				out = append(out, it)
			}
			elems = out
		case UpdateLink:
			if err := update(ch.CurrentURL, ch.CurrentLabel); err != nil {
				return err
			}
		case UpsertLink:
			if find(elems, ch.URL, label) >= 0 {
				if err := update(ch.URL, label); err != nil {
					return err
				}
			} else {
				elems = append(elems, newLink())
			}
		}
		if elems == nil {
			elems = []any{}
		}
		obj["elements"] = elems
		return nil
	})
}
