package emitter

// A worker's requests go deep (the REST emitter, the transport, net/http
// and its RoundTripper): a new goroutine's stack, 2 KiB, grows two or
// three times on the first one, each time copying every frame of that
// deep path and adjusting its pointers, for each worker of each new Async
// emitter. A worker grows its stack first, at the top of its goroutine,
// where a copy is of one frame: once, to the size the request path needs.
// (The collector may shrink an idle worker's stack again; a request then
// grows it as before.)

// workerStackFrame is the size of growStack's frame: with the stack's
// guard, the runtime doubles a new goroutine's stack until it holds it,
// to 16 KiB. A request through net/http's transport to a server grows a
// worker's stack past 8 KiB, one through a transport that answers at once
// to 8 KiB.
const workerStackFrame = 8 << 10

// growStack makes the goroutine's stack hold workerStackFrame bytes more
// than its caller's frames, so that calls below that depth do not grow it
// again. i is any number: the frame is read at it so that it is not
// optimized away.
//
//go:noinline
func growStack(i int) byte {
	var pad [workerStackFrame]byte
	pad[i%len(pad)] = byte(i)
	return pad[(i+1)%len(pad)]
}
