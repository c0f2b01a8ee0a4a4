// Sequence-number flow control inside the replay window (./sequence.go).

package nen

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestSequenceFlowControl(t *testing.T) {
	q := newSequencer()
	ctx := context.Background()
	var got []uint64
	for i := 0; i < windowSpan; i++ {
		s, err := q.acquire(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, s)
	}
	if got[0] != 1 || got[len(got)-1] != windowSpan {
		t.Fatalf("numbers %d..%d", got[0], got[len(got)-1])
	}
	// The window is full: the next number waits for the oldest one.
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if _, err := q.acquire(short); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("acquire past the window: %v", err)
	}
	q.release(500) // not the oldest: still full
	done := make(chan uint64)
	go func() {
		s, _ := q.acquire(ctx)
		done <- s
	}()
	select {
	case <-done:
		t.Fatal("released a middle number and the window moved")
	case <-time.After(50 * time.Millisecond):
	}
	q.release(1)
	select {
	case s := <-done:
		if s != windowSpan+1 {
			t.Fatalf("next number %d", s)
		}
	case <-time.After(time.Second):
		t.Fatal("releasing the oldest number did not wake the waiter")
	}
	q.release(1) // a double release is a no-op
	for _, s := range got[1:] {
		q.release(s)
	}
	q.release(windowSpan + 1)
	if q.pending() != 0 {
		t.Fatalf("%d numbers still in flight", q.pending())
	}
}
