// Package urnold is package urn as it was before its typed constructors and
// parsers took their fast paths (main at 6770dcf), kept whole so that the
// tests of package urn can compare the new code with the old, input by input.
// Only those tests import it; it sets no hooks.
package urnold
