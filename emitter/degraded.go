package emitter

// logDegraded warns once, through the emitter's logger, that EmitAsyncWait
// writes synchronously over Rest.li, which has no write trace to wait on:
// each write returns once stored in primary storage, not once indexed.
func (r *REST) logDegraded() {
	if r.mode != EmitAsyncWait || r.log == nil {
		return
	}
	r.degraded.Do(func() {
		r.log.Warn("emitter: ASYNC_WAIT over Rest.li writes synchronously (SYNC_PRIMARY): Rest.li has no write trace to wait on; use datahub.WithEndpoint(datahub.EndpointOpenAPI) or EndpointAuto against DataHub 1.0.1 or later to wait for indexing",
			"server", r.tc.BaseURL())
	})
}
