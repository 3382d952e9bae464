package gms

// The version retention GMS applies by default (its boot retention.yaml,
// with entityService.retention.enabled true): one version, no history, of
// the status aspects of execution requests, remote executors, actions and
// action requests; 20 versions of every other aspect.
var retainOne = map[[2]string]bool{
	{"dataHubExecutionRequest", "dataHubExecutionRequestResult"}: true,
	{"dataHubRemoteExecutor", "dataHubRemoteExecutorStatus"}:     true,
	{"dataHubAction", "dataHubActionStatus"}:                     true,
	{"actionRequest", "actionRequestStatus"}:                     true,
}

// DefaultMaxVersions is the versions GMS's default retention keeps of an
// aspect without a policy of its own.
const DefaultMaxVersions = 20

// KeepVersions is how many versions of aspect of urn a write keeps
// (store.Retainer): 1 for the aspects of retainOne, else
// DefaultMaxVersions. A kept history row is deleted once the write of a
// newer version puts it past them, as EbeanRetentionService's
// version-based retention does with each write.
func (Rules) KeepVersions(urn, aspect string) int64 {
	if n := len(aspect); (n >= 64 || retainOneLens&(1<<n) != 0) && retainOne[[2]string{EntityTypeOf(urn), aspect}] {
		return 1
	}
	return DefaultMaxVersions
}

// retainOneLens has bit n set when an aspect name of retainOne is n < 64
// bytes long: KeepVersions looks an aspect name shorter than 64 bytes of
// another length up no further, which spares most writes the URN's entity
// type and a map lookup of two strings.
var retainOneLens = func() uint64 {
	var bits uint64
	for k := range retainOne {
		if n := len(k[1]); n < 64 {
			bits |= 1 << n
		}
	}
	return bits
}()
