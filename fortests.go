package datahub

import (
	"time"

	"github.com/catalogkit/datahub-go/internal/config"
)

// The settings of [ForTests], which its documentation states.
const (
	// testMaxAttempts is the number of attempts of a request under
	// ForTests, the first included.
	testMaxAttempts = 3
	// testMinWait is ForTests' wait before the first retry (before jitter).
	testMinWait = 10 * time.Millisecond
	// testMaxWait caps ForTests' wait between attempts, a Retry-After
	// included.
	testMaxWait = 100 * time.Millisecond
	// testTimeout bounds each attempt under ForTests.
	testTimeout = 10 * time.Second
	// testConflictAttempts is the number of read-modify-write rounds of
	// package client's Modify (and the helpers built on it) under
	// ForTests.
	testConflictAttempts = 20
	// testConflictMinWait is ForTests' wait bound before Modify's second
	// round.
	testConflictMinWait = time.Millisecond
	// testConflictMaxWait caps ForTests' wait between two rounds of Modify.
	testConflictMaxWait = 20 * time.Millisecond
)

// ForTests returns one Option for tests against a local server, such as
// the mock DataHub of package mockserver, so that a failure surfaces in a
// fraction of a second instead of after the waits meant for a production
// server. The defaults follow DataHub's Python emitter: 5 attempts about
// 2, 4, 8 and 16 s apart, so a wrong address takes about 20 s to fail, and
// package client's Modify makes 50 rounds up to 1 s apart before it
// reports a conflict that never clears. ForTests sets instead:
//
//   - the retry policy: 3 attempts, waits from 10 ms doubling up to
//     100 ms, and a server's Retry-After honoured up to 100 ms (the mock's
//     injected Retry-After, whole seconds as HTTP has them, then costs
//     100 ms);
//   - the timeout of each attempt: 10 s;
//   - for package client, the conflict policy of Modify and its helpers:
//     20 rounds, waits from 1 ms up to 20 ms (the emitter ignores it).
//
// What is retried is unchanged ([DefaultCheckRetry]). Options given after
// it override what it sets (the last one wins), so give it first; a test
// of many writers contending for one aspect may need more rounds
// (client.WithConflictPolicy after ForTests):
//
//	s := mockserver.Start(t)
//	c, err := client.New(s.URL(), datahub.ForTests())
//	em, err := emitter.NewREST(s.URL(), datahub.ForTests(), emitter.WithEmitMode(emitter.EmitAsync))
func ForTests() Option {
	return Option{func(s *config.Settings) {
		s.Retry = config.Retry{Set: true, MaxAttempts: testMaxAttempts, CheckRetry: DefaultCheckRetry,
			Backoff: ExponentialBackoff(testMinWait, testMaxWait, testMaxWait)}
		s.Timeout = testTimeout
		s.Client.ConflictSet = true
		s.Client.ConflictAttempts, s.Client.ConflictMinWait, s.Client.ConflictMaxWait =
			testConflictAttempts, testConflictMinWait, testConflictMaxWait
	}}
}
