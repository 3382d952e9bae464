package gms

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf16"
)

// DataHub's texts of importDocumentsFromFiles and createDataHubFile
// (DocumentImportService, DataHubFileService and their resolvers).
const (
	MsgImportParentType    = "parentDocumentUrn must be a document entity, got: %s"
	MsgImportParentFailed  = "Failed to validate parent document %s"
	MsgFileExists          = "Failed to create DataHub file with id %s. Root cause: DataHubFile with id %s already exists. URN: %s"
	maxImportText          = 1_000_000
	maxImportID            = 200
	importHashHex          = 16
	importTruncationSuffix = "\n\n... (truncated)"
)

// ImportFile is one file of DataHub's importDocumentsFromFiles: its name
// and its text content.
type ImportFile struct{ FileName, Content string }

// ImportResult is DataHub's ImportDocumentsResult.
type ImportResult struct {
	CreatedCount, UpdatedCount, FailedCount int
	Errors, DocumentURNs                    []string
}

var (
	importUnsafe    = regexp.MustCompile(`[^a-zA-Z0-9_.\-]`)
	importMultiDash = regexp.MustCompile(`-{2,}`)
)

// importDocumentID is DocumentImportService.makeDocumentId: the source id
// made safe for a URN, cut to fit, and the first 8 bytes of its SHA-256 in
// hex, so that a re-import of a file updates its document.
func importDocumentID(sourceID string) string {
	sum := sha256.Sum256([]byte(sourceID))
	suffix := hex.EncodeToString(sum[:importHashHex/2])
	safe := importMultiDash.ReplaceAllString(importUnsafe.ReplaceAllString(sourceID, "-"), "-")
	safe = strings.ToLower(strings.Trim(safe, "-"))
	if max := maxImportID - len(suffix) - 1; len(safe) > max {
		safe = safe[:max]
	}
	return safe + "-" + suffix
}

// fileBase is a file name without its directories and extension (a leading
// dot kept).
func fileBase(name string) string {
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	if i := strings.LastIndexByte(name, '.'); i > 0 {
		name = name[:i]
	}
	return name
}

// importTitle is TextExtractors.titleFromFilename: the base name's words
// (split at -, _ and spaces) capitalized.
func importTitle(name string) string {
	words := strings.Fields(strings.NewReplacer("-", " ", "_", " ").Replace(fileBase(name)))
	for i, w := range words {
		r := []rune(strings.ToLower(w))
		r[0] = unicode.ToUpper(r[0])
		words[i] = string(r)
	}
	return strings.Join(words, " ")
}

// ImportDocuments imports files as documents as DataHub's
// importDocumentsFromFiles: the parent (when given) must be an existing
// document; a file of blank content is skipped; each other file becomes
// the document of an id derived from its name (updated when it exists):
// documentInfo with the title from the name, the text (cut at 1,000,000
// characters), a NATIVE source, state PUBLISHED, the parent and custom
// properties naming the upload; subTypes SKILL for that use case;
// documentSettings. A file that fails is counted and reported, the others
// still imported.
func (c *Core) ImportDocuments(ctx context.Context, files []ImportFile, useCase string, show bool, parent *string) (ImportResult, error) {
	res := ImportResult{Errors: []string{}, DocumentURNs: []string{}}
	if parent != nil {
		if err := checkURNs(*parent); err != nil {
			return res, err
		}
		if t := EntityTypeOf(*parent); t != "document" {
			return res, errorf(BadArgument, MsgImportParentType, t)
		}
		if err := c.mustExist(ctx, *parent, errorf(BadArgument, MsgImportParentFailed, *parent)); err != nil {
			return res, err
		}
	}
	for _, f := range files {
		if strings.TrimSpace(f.Content) == "" {
			continue
		}
		sourceID := "upload." + fileBase(f.FileName)
		u := "urn:li:document:" + importDocumentID(sourceID)
		update, err := c.exists(ctx, u)
		if err == nil {
			err = c.importOne(ctx, u, sourceID, f, useCase, show, parent)
		}
		if err != nil {
			res.FailedCount++
			res.Errors = append(res.Errors, sourceID+": "+AsError(err).Message)
			continue
		}
		if update {
			res.UpdatedCount++
		} else {
			res.CreatedCount++
		}
		res.DocumentURNs = append(res.DocumentURNs, u)
	}
	return res, nil
}

func (c *Core) importOne(ctx context.Context, u, sourceID string, f ImportFile, useCase string, show bool, parent *string) error {
	text := f.Content
	if units := utf16.Encode([]rune(text)); len(units) > maxImportText {
		text = string(utf16.Decode(units[:maxImportText])) + importTruncationSuffix
	}
	ext := ""
	if i := strings.LastIndexByte(f.FileName, '.'); i >= 0 {
		ext = strings.ToLower(f.FileName[i:])
	}
	s := c.stamp(ctx)
	info := map[string]any{"title": importTitle(f.FileName), "contents": map[string]any{"text": text},
		"source": map[string]any{"sourceType": "NATIVE"}, "created": s, "lastModified": s,
		"status": map[string]any{"state": "PUBLISHED"},
		"customProperties": map[string]any{"import_source_id": sourceID, "import_source": "file_upload",
			"original_filename": f.FileName, "file_extension": ext}}
	if parent != nil {
		info["parentDocument"] = map[string]any{"document": *parent}
	}
	aspects := map[string]any{"documentInfo": info, "documentSettings": map[string]any{"showInGlobalContext": show, "lastModified": s}}
	if useCase == "SKILL" {
		aspects["subTypes"] = map[string]any{"typeNames": []any{"SKILL"}}
	}
	return c.writeAll(ctx, u, aspects)
}

// DataHubFile is DataHub's CreateDataHubFileInput.
type DataHubFile struct {
	ID, StorageKey, OriginalFileName, MimeType  string
	SizeInBytes                                 int64
	Scenario                                    string
	ReferencedByAsset, SchemaField, ContentHash *string
}

// CreateDataHubFile records an uploaded file as DataHub's
// createDataHubFile: the id must be new; dataHubFileInfo gets the storage
// location (the bucket "", as a DataHub without a configured S3 bucket
// writes it), the name, MIME type, size, scenario, a created stamp, and the
// asset, schema field and content hash given.
func (c *Core) CreateDataHubFile(ctx context.Context, f DataHubFile) (string, error) {
	u := "urn:li:dataHubFile:" + f.ID
	if err := checkURNs(append([]string{u}, derefAll(f.ReferencedByAsset, f.SchemaField)...)...); err != nil {
		return "", err
	}
	info := map[string]any{"bucketStorageLocation": map[string]any{"storageBucket": "", "storageKey": f.StorageKey},
		"originalFileName": f.OriginalFileName, "mimeType": f.MimeType, "sizeInBytes": f.SizeInBytes,
		"scenario": f.Scenario, "created": c.stamp(ctx)}
	setGiven(info, "referencedByAsset", f.ReferencedByAsset)
	setGiven(info, "schemaField", f.SchemaField)
	setGiven(info, "contentHash", f.ContentHash)
	if err := c.create(ctx, u, map[string]any{"dataHubFileInfo": info}, errorf(Internal, MsgFileExists, f.ID, f.ID, u)); err != nil {
		return "", err
	}
	return u, nil
}
