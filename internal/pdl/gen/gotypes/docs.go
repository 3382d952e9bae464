package gotypes

import (
	"bytes"
	"regexp"
	"strings"
)

// A doc comment is written from blocks: paragraphs of text (wrapped),
// list items and preformatted lines, in the forms go doc renders.
type docBlock struct {
	kind  byte // 'p' paragraph, 'l' list item, 'c' preformatted line
	text  string
	blank bool // a blank line precedes it
}

var (
	javadocTag = regexp.MustCompile(`\{@(?:link|linkplain|code|literal)\s+([^}]*)\}`)
	htmlTag    = regexp.MustCompile(`(?i)</?(?:p|br|b|i|em|strong|code|pre|ul|ol|a|tt|h[1-6])\b[^>]*>`)
	listStart  = regexp.MustCompile(`^(?:[-*+•]|\d+[.)])\s+`)
)

// pdlDoc turns a PDL doc comment (lines kept, stars stripped) into blocks:
// Javadoc tags ({@link X}, {@code x}) become their text, HTML markup is
// dropped (<li> starts a list item, <p> a paragraph), lines starting with
// "-", "*" or "1." become list items and ``` fences preformatted lines.
func pdlDoc(doc string) []docBlock {
	doc = javadocTag.ReplaceAllStringFunc(doc, func(m string) string {
		s := strings.TrimSpace(javadocTag.FindStringSubmatch(m)[1])
		return strings.ReplaceAll(s, "#", ".")
	})
	doc = regexp.MustCompile(`(?i)<li\b[^>]*>`).ReplaceAllString(doc, "\n- ")
	doc = regexp.MustCompile(`(?i)</li>`).ReplaceAllString(doc, "")
	doc = regexp.MustCompile(`(?i)<p\b[^>]*>`).ReplaceAllString(doc, "\n\n")
	doc = htmlTag.ReplaceAllString(doc, "")
	doc = strings.NewReplacer("&lt;", "<", "&gt;", ">", "&amp;", "&", "&quot;", `"`, "&nbsp;", " ").Replace(doc)

	var out []docBlock
	blank, fenced := false, false
	for line := range strings.Lines(doc) {
		line = strings.TrimRight(line, " \t\r\n")
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "```") {
			fenced = !fenced
			blank = true
			continue
		}
		if fenced {
			out = append(out, docBlock{kind: 'c', text: line, blank: blank && (len(out) == 0 || out[len(out)-1].kind != 'c')})
			blank = false
			continue
		}
		if trimmed == "" {
			blank = true
			continue
		}
		if m := listStart.FindString(trimmed); m != "" {
			out = append(out, docBlock{kind: 'l', text: trimmed[len(m):], blank: blank})
			blank = false
			continue
		}
		if n := len(out); n > 0 && !blank && out[n-1].kind != 'c' {
			out[n-1].text += " " + trimmed
			continue
		}
		out = append(out, docBlock{kind: 'p', text: trimmed, blank: blank})
		blank = false
	}
	return out
}

// deprecatedDoc is the Deprecated paragraph of a PDL @deprecated mark
// (what nil when there is none) on a field or type.
func deprecatedDoc(mark *string, what string) []docBlock {
	if mark == nil {
		return nil
	}
	text := strings.Join(strings.Fields(*mark), " ")
	if text == "" {
		text = "DataHub marks this " + what + " deprecated."
	} else if !strings.HasSuffix(text, ".") {
		text += "."
	}
	return []docBlock{{kind: 'p', text: "Deprecated: " + text, blank: true}}
}

// appendSentence adds sentence to the last paragraph of blocks (ending
// that paragraph with a period when it has no final punctuation), or as a
// paragraph of its own after a list or preformatted text.
func appendSentence(blocks []docBlock, sentence string) []docBlock {
	n := len(blocks)
	if n == 0 || blocks[n-1].kind != 'p' {
		return append(blocks, para(sentence))
	}
	last := &blocks[n-1]
	if !strings.ContainsAny(last.text[len(last.text)-1:], ".!?:") {
		last.text += "."
	}
	last.text += " " + sentence
	return blocks
}

// para is a paragraph block.
func para(text string) docBlock { return docBlock{kind: 'p', text: text, blank: true} }

// writeDoc writes blocks as a // comment indented by indent, text wrapped
// at about 80 columns, a blank comment line between paragraphs.
func writeDoc(b *bytes.Buffer, indent string, blocks []docBlock) {
	for i, bl := range blocks {
		if i > 0 && (bl.blank || bl.kind == 'p' || blocks[i-1].kind == 'l' && bl.kind != 'l') {
			b.WriteString(indent + "//\n")
		}
		switch bl.kind {
		case 'c':
			b.WriteString(indent + "//\t" + bl.text + "\n")
		case 'l':
			wrap(b, indent+"//   - ", indent+"//     ", bl.text)
		default:
			wrap(b, indent+"// ", indent+"// ", bl.text)
		}
	}
}

// wrap writes text in lines of about 80 columns, the first starting with
// first and the others with rest.
func wrap(b *bytes.Buffer, first, rest, text string) {
	line, n := first, 0
	for _, w := range strings.Fields(text) {
		if n > 0 && len(line)+1+len(w) > 80 {
			b.WriteString(line + "\n")
			line, n = rest, 0
		}
		if n > 0 {
			line += " "
		}
		line += w
		n++
	}
	b.WriteString(line + "\n")
}
