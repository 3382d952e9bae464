package jsonesc

import "unicode/utf8"

const hexDigits = "0123456789abcdef"

// plainASCII marks the ASCII bytes a JSON string holds as they are.
var plainASCII = func() (t [utf8.RuneSelf]bool) {
	for b := 0x20; b < utf8.RuneSelf; b++ {
		t[b] = b != '"' && b != '\\'
	}
	return t
}()

// plainNoHTML is plainASCII without '<', '>' and '&'.
var plainNoHTML = func() (t [utf8.RuneSelf]bool) {
	t = plainASCII
	t['<'], t['>'], t['&'] = false, false, false
	return t
}()

// AppendString appends s as a JSON string, byte for byte as encoding/json
// writes it with HTML escaping off (json.Encoder.SetEscapeHTML(false)):
// '"' and '\\' escaped, the control characters as \b, \f, \n, \r, \t or
// \u00XX, U+2028 and U+2029 as \u2028 and \u2029, each byte of invalid
// UTF-8 as \ufffd, everything else as it is.
func AppendString[T string | []byte](dst []byte, s T) []byte {
	return appendString(dst, s, false)
}

// AppendStringHTML is AppendString that also escapes '<', '>' and '&' as
// \u003c, \u003e and \u0026, byte for byte as json.Marshal writes a
// string.
func AppendStringHTML[T string | []byte](dst []byte, s T) []byte {
	return appendString(dst, s, true)
}

// AppendStringBody is AppendString without the quotes around the string.
func AppendStringBody[T string | []byte](dst []byte, s T) []byte {
	return appendBody(dst, s, false)
}

func appendString[T string | []byte](dst []byte, s T, html bool) []byte {
	dst = append(dst, '"')
	dst = appendBody(dst, s, html)
	return append(dst, '"')
}

// appendBody appends the escaped characters of s, without quotes.
func appendBody[T string | []byte](dst []byte, s T, html bool) []byte {
	plain := &plainASCII
	if html {
		plain = &plainNoHTML
	}
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if plain[c] {
				if i++; !html {
					i = Plain(s, i)
				}
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(string(s[i:min(i+utf8.UTFMax, len(s))]))
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	return append(dst, s[start:]...)
}
