// Sequence numbers of one session with flow control against the server's replay window
// (PROTOCOL.md §4): a new number is handed out only while it is less than 1024 - 64 ahead of the
// oldest number still awaiting its response head; otherwise the caller waits (honouring its
// context) until that one is released.
//
// Pitfalls: numbers are released when the response head arrives or the send fails, never later
// (a long stream must not block the session); a double release is a no-op; memory is bounded by
// the numbers in flight, which the window bounds too.

package nen

import (
	"context"
	"sync"
)

const (
	replayWindow = 1024
	windowMargin = 64
	windowSpan   = replayWindow - windowMargin
)

type sequencer struct {
	mu       sync.Mutex
	next     uint64
	inFlight map[uint64]struct{}
	oldest   uint64 // smallest number in flight (valid when inFlight is not empty)
	wake     chan struct{}
}

func newSequencer() *sequencer {
	return &sequencer{next: 1, inFlight: map[uint64]struct{}{}, wake: make(chan struct{})}
}

func (q *sequencer) fits() bool {
	return len(q.inFlight) == 0 || q.next-q.oldest < windowSpan
}

// acquire returns the next number once the window allows it.
func (q *sequencer) acquire(ctx context.Context) (uint64, error) {
	for {
		q.mu.Lock()
		if q.fits() {
			seq := q.next
			q.next++
			if len(q.inFlight) == 0 {
				q.oldest = seq
			}
			q.inFlight[seq] = struct{}{}
			q.mu.Unlock()
			return seq, nil
		}
		wake := q.wake
		q.mu.Unlock()
		select {
		case <-wake:
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	}
}

// release marks seq as answered (or failed) and wakes waiters when the oldest one moved.
func (q *sequencer) release(seq uint64) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if _, ok := q.inFlight[seq]; !ok {
		return
	}
	delete(q.inFlight, seq)
	if seq != q.oldest {
		return
	}
	for len(q.inFlight) > 0 {
		q.oldest++
		if _, ok := q.inFlight[q.oldest]; ok {
			break
		}
	}
	close(q.wake)
	q.wake = make(chan struct{})
}

// pending is the count of numbers handed out and not released.
func (q *sequencer) pending() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.inFlight)
}
