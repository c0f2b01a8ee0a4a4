// The RoundTrip of Transport with the recovery rules of PROTOCOL.md §7 and §7.1 (protocol 1.1):
// send once; after an unauthenticated 401-class answer to a request that was sent, re-handshake
// and send ONE retry naming the original (session, epoch, seq, timestamp) in its AAD.
//
// Pitfalls:
//   - An unauthenticated error never proves the handler did not run: only the server's sealed
//     answer to the retry decides (run, NEN_RETRY_COMMITTED, NEN_RETRY_UNKNOWN).
//   - Outcomes: not sent (errors before the first send, as they are); sent, outcome unknown
//     (NEN_OUTCOME_UNKNOWN with the underlying error as Cause); refused (NEN_RETRY_COMMITTED).
//   - NEN_AUTH_FAILED waits a backoff first (250 ms doubling to 10 s, reset by a success); a
//     retry is sent only within 60 s of the original, never for a streamed body, never twice.

package nen

import (
	"context"
	"net/http"
	"time"
)

// retryHorizon: a retry is only sent this soon after the original (PROTOCOL.md §7.1).
const retryHorizon = 60 * time.Second

// decision is what follows a failed send.
type decision struct {
	retry   bool
	backoff bool
	final   error // the error to report when not retrying
}

// decide applies the catalog to err, the failure of a request that was sent: streamed (a
// streamed body), age (since the original was sent), isRetry (err answers a retry).
func decide(err error, streamed bool, age time.Duration, isRetry, enabled bool) decision {
	action := recoveryOf(err)
	switch {
	case action == recoverFail:
		return decision{final: err}
	case isRetry || streamed || !enabled || age > retryHorizon:
		return decision{final: outcomeUnknown(err)}
	}
	return decision{retry: true, backoff: action == recoverRetryWait}
}

// RoundTrip implements http.RoundTripper.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	p, err := t.prepare(req)
	if err != nil {
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, err
	}
	origin, err := t.bindOrigin(req.URL.Scheme, req.URL.Host)
	if err != nil {
		if p.upload != nil {
			p.upload.Close()
		}
		return nil, err
	}
	ctx := req.Context()
	s, err := t.sessions.ensure(ctx, origin, false)
	if err != nil {
		if p.upload != nil {
			p.upload.Close()
		}
		return nil, err // not sent
	}
	sentAt := time.Now()
	res, ref, err := t.attempt(ctx, req, p, s, nil)
	if err == nil {
		t.setBackoff(0)
		return res, nil
	}
	if ref == nil {
		return nil, err // not sent
	}
	d := decide(err, p.upload != nil, time.Since(sentAt), false, t.cfg.retry)
	if recoveryOf(err) != recoverFail {
		t.sessions.invalidate(s)
	}
	if !d.retry {
		return nil, d.final
	}
	if d.backoff {
		if werr := sleep(ctx, t.nextBackoff()); werr != nil {
			return nil, outcomeUnknown(werr)
		}
	}
	return t.resend(ctx, req, p, origin, ref)
}

// resend is the retry: a new session, the same request, naming the original.
func (t *Transport) resend(ctx context.Context, req *http.Request, p *prepared, origin string, original *retryRef) (*http.Response, error) {
	s, err := t.sessions.ensure(ctx, origin, false)
	if err != nil {
		return nil, outcomeUnknown(err)
	}
	res, _, err := t.attempt(ctx, req, p, s, original)
	if err != nil {
		if recoveryOf(err) != recoverFail {
			t.sessions.invalidate(s)
		}
		return nil, outcomeUnknown(err)
	}
	if refused := refusedRetry(res); refused != nil {
		return nil, refused
	}
	t.setBackoff(0)
	return res, nil
}

func (t *Transport) setBackoff(d time.Duration) {
	t.mu.Lock()
	t.backoff = d
	t.mu.Unlock()
}

// nextBackoff doubles the backoff within [250 ms, 10 s].
func (t *Transport) nextBackoff() time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.backoff = min(max(t.backoff*2, 250*time.Millisecond), 10*time.Second)
	return t.backoff
}

func sleep(ctx context.Context, d time.Duration) error {
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-tm.C:
		return nil
	case <-ctx.Done():
		return aborted(ctx)
	}
}
