// The transport's one session: the handshake over HTTP (with pin fallback on NEN_UNKNOWN_KEY_ID),
// the live session and its replacement before expiry or after a 401-class answer.
//
// Pitfalls:
//   - One handshake in flight whatever the concurrency; it runs on its own deadline, not on any
//     one caller's context (one caller giving up must not fail the others).
//   - Only NEN_UNKNOWN_KEY_ID moves on to the next pin; a failed key confirmation under a kid the
//     server accepted is final (a substituted key).
//   - Expiry is counted on the local clock from the ServerHello's arrival; a new handshake starts
//     once less than 2 s remain. The clock skew corrects request timestamps.

package nen

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"sync"
	"time"
)

const (
	expiryMargin       = 2 * time.Second
	maxServerHelloSize = 4096
)

// session is one established session (one epoch of it).
type session struct {
	sid       [16]byte
	sidStr    string
	epoch     uint32
	keys      *epochKeys
	secret    []byte // the epoch secret S_n, for the next rotate
	seq       *sequencer
	expiresAt time.Time
	skewMs    int64
	keyID     string
	kem       uint16
}

// SessionInfo describes the transport's current session.
type SessionInfo struct {
	ID        string // 22 base64url characters, as in the `nen` header
	KeyID     string // the pinned server key id; "" when unpinned
	KEM       string // "xwing" or "mlkem768"
	Pinned    bool
	Epoch     uint32
	ExpiresAt time.Time // local clock
}

func (s *session) info() SessionInfo {
	return SessionInfo{ID: s.sidStr, KeyID: s.keyID, KEM: KEMName(s.kem), Pinned: s.keyID != "", Epoch: s.epoch, ExpiresAt: s.expiresAt}
}

type handshakeCall struct {
	done chan struct{}
	s    *session
	err  error
}

type sessions struct {
	cfg  *config
	base http.RoundTripper
	mu   sync.Mutex
	cur  *session
	hs   *handshakeCall
}

// ensure returns the live session, or waits for the (shared) handshake.
func (m *sessions) ensure(ctx context.Context, origin string, fresh bool) (*session, error) {
	m.mu.Lock()
	if s := m.cur; s != nil && !fresh && time.Until(s.expiresAt) > expiryMargin {
		m.mu.Unlock()
		return s, nil
	}
	c := m.hs
	if c == nil {
		c = &handshakeCall{done: make(chan struct{})}
		m.hs = c
		go m.run(c, origin)
	}
	m.mu.Unlock()
	select {
	case <-c.done:
		return c.s, c.err
	case <-ctx.Done():
		return nil, aborted(ctx)
	}
}

func (m *sessions) run(c *handshakeCall, origin string) {
	s, err := m.handshake(origin)
	m.mu.Lock()
	if err == nil {
		m.cur = s
	}
	m.hs = nil
	m.mu.Unlock()
	c.s, c.err = s, err
	close(c.done)
}

// invalidate forgets s if it is still the current session (the next request re-handshakes).
func (m *sessions) invalidate(s *session) {
	m.mu.Lock()
	if m.cur == s {
		m.cur = nil
	}
	m.mu.Unlock()
}

func (m *sessions) current() *session {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.cur
}

// handshake runs one handshake, moving to the next pin only on NEN_UNKNOWN_KEY_ID.
func (m *sessions) handshake(origin string) (*session, error) {
	if len(m.cfg.pins) == 0 {
		return m.attempt(origin, nil)
	}
	for i := range m.cfg.pins {
		s, err := m.attempt(origin, &m.cfg.pins[i])
		if err == nil || i+1 == len(m.cfg.pins) || CodeOf(err) != CodeUnknownKeyID || recoveryOf(err) != recoverFail {
			return s, err
		}
	}
	panic("unreachable")
}

func (m *sessions) attempt(origin string, pin *Pin) (*session, error) {
	st, err := startHandshake(m.cfg.unpinnedKEM, m.cfg.lifetime, pin)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeoutCause(context.Background(), m.cfg.timeout, errTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, origin+m.cfg.sessionPath+"/handshake", bytes.NewReader(st.hello))
	if err != nil {
		return nil, newError(CodeBadInput, "cannot build the handshake request", err)
	}
	req.Header.Set("content-type", "application/nen-handshake")
	t0 := time.Now()
	res, err := m.base.RoundTrip(req)
	if err != nil {
		return nil, transportError(ctx, context.Background(), err)
	}
	body, err := io.ReadAll(io.LimitReader(res.Body, maxServerHelloSize+1))
	res.Body.Close()
	if err != nil {
		return nil, transportError(ctx, context.Background(), err)
	}
	t1 := time.Now()
	if res.StatusCode != http.StatusOK {
		return nil, serverError(res, "handshake answered without a ServerHello")
	}
	if mediaType(res.Header.Get("content-type")) != "application/nen-handshake" {
		return nil, newError(CodeHandshakeFailed, "the handshake response has the wrong content type", nil)
	}
	r, err := st.finish(body)
	if err != nil {
		return nil, err
	}
	keys, err := newEpochKeys(r.secret)
	if err != nil {
		return nil, newError(CodeHandshakeFailed, "cannot derive the session keys", err)
	}
	mid := t0.UnixMilli() + (t1.UnixMilli()-t0.UnixMilli())/2
	s := &session{
		sid: r.sid, sidStr: b64.EncodeToString(r.sid[:]), keys: keys, secret: r.secret, seq: newSequencer(),
		expiresAt: t1.Add(time.Duration(r.lifetime) * time.Second),
		skewMs:    int64(r.serverTime) - mid, keyID: st.kid, kem: st.kem,
	}
	return s, nil
}

// errTimeout is the cause a deadline cancels with.
var errTimeout = errors.New("nen: deadline passed")

// aborted is the caller's cancellation as NEN_ABORTED (or NEN_TIMEOUT for its own deadline).
func aborted(ctx context.Context) error {
	cause := context.Cause(ctx)
	if errors.Is(cause, errTimeout) {
		return newError(CodeTimeout, "no complete response within the timeout", cause)
	}
	return newError(CodeAborted, "the caller's context ended", cause)
}

// transportError classifies a failed round trip: our deadline, the caller's context, or the
// network error itself (unclassified, as the platform reported it).
func transportError(attemptCtx, callerCtx context.Context, err error) error {
	if errors.Is(context.Cause(attemptCtx), errTimeout) {
		return newError(CodeTimeout, "no complete response within the timeout", err)
	}
	if callerCtx.Err() != nil {
		return aborted(callerCtx)
	}
	return err
}
