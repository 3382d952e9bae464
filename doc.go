// Package datahub is the root of datahub-go, the Go SDK for DataHub-compatible
// metadata catalogs.
//
// The module is split by concern:
//
//   - [github.com/catalogkit/datahub-go/urn]: typed URN builders and parsers
//     with DataHub's exact escaping.
//   - [github.com/catalogkit/datahub-go/aspects]: typed aspect structs whose
//     JSON matches DataHub's PDL schemas, and the entity registry.
//   - [github.com/catalogkit/datahub-go/fieldpath]: version-2 field paths.
//   - [github.com/catalogkit/datahub-go/emitter]: metadata change proposals
//     over DataHub's REST write path (one, batch, async, file).
//   - [github.com/catalogkit/datahub-go/mockserver]: an in-process and
//     standalone DataHub mock for tests.
//
// This root package holds what every other package shares: the [Error] type
// that carries a server's answer, and the sentinel errors ([ErrNotFound],
// [ErrUnauthorized], [ErrPreconditionFailed], [ErrPayloadTooLarge],
// [ErrValidation]) that callers match with [errors.Is]:
//
//	if errors.Is(err, datahub.ErrPreconditionFailed) {
//		// someone else wrote the aspect first: read again and retry
//	}
package datahub
