package index

// A writer whose request has an answer to send may skip Follow before its
// write, ask FollowDue after it, and call Follow once it has answered (see
// the rules core's IngestOptions.FollowLater): the catch-up of followAt
// changes or more is then not part of any writer's wait for its answer.
// Reads are not affected: every read catches up first, whatever a writer
// left.

// FollowDue reports whether [Index.Follow] would catch up now: followAt
// changes or more are pending, or a task may have batches due.
func (x *Index) FollowDue() bool { return x.tasksRunning.Load() || x.sub.Len() >= followAt }

// TasksRunning reports whether a task (a truncation, see [Index.Truncate])
// may have batches due: a writer then follows before its write, so that
// the rules core takes the deletions of the batches due at once.
func (x *Index) TasksRunning() bool { return x.tasksRunning.Load() }

// Pending returns the number of store changes the index has not taken yet
// (applied or dropped), whether due or not.
func (x *Index) Pending() int { return x.sub.Len() }
